/**
 * Run traces under {@code <data>/research-runs}: {@code run.json} ({@code research_trace.v1}),
 * {@code run.md} and sidecars, written atomically, redacted and pruned by retention.
 *
 * <p>{@link dev.brain.research.trace.TraceStore} is the entry (write, list, read, prune) and the
 * runner's {@link dev.brain.research.run.RunTraces}; {@link dev.brain.research.trace.ResearchTrace}
 * is the file's shape, {@code TraceMarkdown} renders it, {@link dev.brain.research.trace.Redactor}
 * removes secrets and outside paths, {@link dev.brain.research.trace.RetentionPolicy} says what is
 * kept.
 */
package dev.brain.research.trace;
