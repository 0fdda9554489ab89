package dev.brain.research.run;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/**
 * Where a {@link ResearchRunner} writes its traces. {@link dev.brain.research.trace.TraceStore} is
 * the implementation; the runner names only this interface, so {@code run} does not depend on
 * {@code trace} (which renders runs, and so depends on {@code run}).
 */
public interface RunTraces {

  /** Sidecar: the model planner's input (when a model planner ran). */
  String PLANNER_INPUT = "planner-input.md";

  /** Sidecar: the model planner's raw output, when it was JSON. */
  String PLANNER_OUTPUT_JSON = "planner-output.json";

  /** Sidecar: the model planner's raw output, when it was not JSON. */
  String PLANNER_OUTPUT_TXT = "planner-output.txt";

  /** Sidecar: what the review model was asked (prompt, evidence and answer), when one reviewed. */
  String REVIEW_INPUT = "review-input.md";

  /** Sidecar: the review model's raw reply, when it gave one. */
  String REVIEW_OUTPUT = "review-output.md";

  /** Sidecar: the exact synthesis input (system prompt and evidence text), when prepared. */
  String SYNTHESIS_INPUT = "synthesis-input.md";

  /**
   * Writes the trace of {@code draft} (the run's result before its trace existed) with these
   * sidecar files, then deletes old traces by retention, never {@code draft}'s, within the
   * request's trace budget.
   *
   * @param sidecars file name to text, named by the constants above
   * @return where the trace went and how many old traces were deleted
   */
  Stored save(RunResult draft, RunRequest request, Instant startedAt, Map<String, String> sidecars)
      throws IOException;

  /**
   * A written trace.
   *
   * @param path the trace directory
   * @param bytes bytes of its files
   * @param pruned old traces deleted after it was written
   */
  record Stored(Path path, long bytes, int pruned) {}
}
