package dev.brain.index;

/**
 * Which summaries a sync makes for records that bring none of their own ({@code index.summaries}).
 * A summary a record brings (front matter {@code summary:}/{@code description:}, a JSONL line's
 * {@code summary}) is indexed either way.
 */
public enum SummaryMode {
  /**
   * The default: every long record (see {@link dev.brain.chunking.ExtractiveSummary}) gets an
   * extractive summary, indexed as summary chunks.
   */
  EXTRACTIVE,
  /** No summaries are made; long records are counted as lacking one in {@code brain status}. */
  NONE
}
