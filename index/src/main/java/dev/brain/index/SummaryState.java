package dev.brain.index;

import java.time.Instant;

/**
 * What a record document says about its summary: where it came from and, for the summary model, the
 * version of the one it holds or why the last attempt failed.
 *
 * @param source {@link SummarySource#wireName()}, or {@code null} for a short record
 * @param version {@link SummaryModel#version} of a model summary, else {@code null}
 * @param failure why the last attempt at a model summary failed, or {@code null}
 * @param attempts failed attempts in a row (0 without a failure)
 * @param retryAt when a failed record may be tried again, or {@code null}
 */
record SummaryState(String source, String version, String failure, int attempts, Instant retryAt) {

  /** Longest failure reason kept (it is a keyword term). */
  static final int MAX_REASON = 500;

  SummaryState {
    if (failure != null && failure.length() > MAX_REASON) {
      failure = failure.substring(0, MAX_REASON - 3) + "...";
    }
  }

  /** A summary from {@code source} (a wire name, or {@code null}), never sent to a model. */
  static SummaryState of(String source) {
    return new SummaryState(source, null, null, 0, null);
  }

  /** A summary the model wrote, with its version. */
  static SummaryState model(String version) {
    return new SummaryState(SummarySource.MODEL.wireName(), version, null, 0, null);
  }

  /** This state after a failed attempt: the summary kept, the reason and the next try recorded. */
  SummaryState failed(String reason, Instant retry) {
    return new SummaryState(source, version, reason, attempts + 1, retry);
  }
}
