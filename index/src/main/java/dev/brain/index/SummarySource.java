package dev.brain.index;

import java.util.Locale;

/**
 * Where a record's summary came from, stored on the record ({@link IndexFields#SUMMARY_SOURCE}) so
 * {@code brain status} can tell how many records that should have a summary have one. A short
 * record, which needs none, stores no source.
 */
enum SummarySource {
  /** The record brought it (front matter, a JSONL field, a Java caller). */
  IMPORTED,
  /** Made from the record's text at sync time. */
  EXTRACTIVE,
  /**
   * Written by the summary model ({@code index.summary-model}) after the record was searchable;
   * replaces an extractive one.
   */
  MODEL,
  /** The record is long enough for one, but summaries are off ({@code index.summaries: none}). */
  OFF;

  /** The stored value: {@code imported}, {@code extractive}, {@code model}, {@code off}. */
  String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
