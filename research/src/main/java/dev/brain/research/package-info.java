/**
 * Research over a brain index: a natural-language question in, a bounded, cited, verified answer
 * out. {@link dev.brain.research.Researcher} is the module's entry type (pack, prepare, synthesize,
 * verify, or all at once); {@link dev.brain.research.run.ResearchRunner} runs the traced, judged
 * {@code research_run.v1} loop over the same steps.
 *
 * <p>The work is split by concern: {@code plan} (question text, analysis, strategy, model planner),
 * {@code pack} (pack building, ranking, coverage, topic brief, merges), {@code synthesis} (input,
 * extractive and model answers, citations, verification), {@code run} (the runner, judge, stages,
 * budgets), {@code trace} (trace files, markdown, retention, redaction) and {@code json} (brain's
 * one JSON mapper). Packages depend on each other one way ({@code PackageCyclesTest}). Types that
 * are public only so another research package can use them say so in their Javadoc; they are not
 * API.
 */
package dev.brain.research;
