/**
 * Bounded research runs ({@code research_run.v1}): plan, retrieve, inspect, judge, at most one
 * retry or expansion, synthesize, verify, trace.
 *
 * <p>{@link dev.brain.research.run.ResearchRunner} is the entry; one run is a package-private
 * {@code ResearchRun}. {@code Judge} gives the {@link dev.brain.research.run.JudgeVerdict}; {@link
 * dev.brain.research.run.RunBudgets} bounds steps and time; progress reaches a {@link
 * dev.brain.research.run.RunListener} as {@link dev.brain.research.run.ProgressEvent}s; the outcome
 * is a {@link dev.brain.research.run.RunResult} with its {@link dev.brain.research.run.StopReason}.
 * The runner writes its trace through {@link dev.brain.research.run.RunTraces}, which {@code trace}
 * implements, so this package does not depend on {@code trace}; {@link
 * dev.brain.research.run.RunId} makes the run ids that name trace directories.
 */
package dev.brain.research.run;
