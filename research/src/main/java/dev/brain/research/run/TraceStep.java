package dev.brain.research.run;

import static dev.brain.research.run.StageData.data;

import dev.brain.research.run.ProgressEvent.Status;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;

/** The last stage of a run: its trace written from the result so far, then retention applied. */
final class TraceStep {
  private TraceStep() {}

  /**
   * What the trace stage left.
   *
   * @param path the trace directory, or {@code null}
   * @param bytes bytes written
   * @param error why the trace could not be written, or {@code null}
   */
  record Saved(String path, long bytes, String error) {}

  /** No trace was asked for. */
  static final Saved SKIPPED = new Saved(null, 0, null);

  /**
   * Writes the trace of {@code draft} (the run's result before the trace existed; its events end
   * with the trace stage's start) and prunes old traces; never throws.
   */
  static Saved save(
      RunTraces traces,
      Stages stages,
      long startNanos,
      RunResult draft,
      RunRequest request,
      Instant startedAt,
      Map<String, String> sidecars) {
    try {
      RunTraces.Stored written = traces.save(draft, request, startedAt, sidecars);
      String path = written.path().toString();
      stages.timing(RunStage.TRACE, startNanos);
      stages.emit(
          RunStage.TRACE,
          Status.COMPLETED,
          "Trace saved: " + path,
          data("path", path, "bytes", written.bytes(), "pruned", written.pruned()));
      return new Saved(path, written.bytes(), null);
    } catch (IOException | RuntimeException e) {
      stages.timing(RunStage.TRACE, startNanos);
      stages.emit(RunStage.TRACE, Status.FAILED, "Trace not saved: " + e, Map.of());
      return new Saved(null, 0, e.toString());
    }
  }
}
