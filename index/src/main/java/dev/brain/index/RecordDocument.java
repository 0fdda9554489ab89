package dev.brain.index;

import static dev.brain.index.IndexFields.*;

import java.time.Instant;
import java.util.List;

/**
 * A stored record document read by field name ({@link IndexFields}), and {@link #toRecord()}: the
 * one mapping of those fields back to the {@link CorpusRecord} they were written from. Every store
 * that keeps records under these names adapts its own document type to the three accessors: the
 * embedded index's Lucene documents ({@link IndexInternals#record}), the SolrCloud backend's.
 */
public interface RecordDocument {

  /** The first value of {@code field}, as text, or {@code null} if it has none. */
  String value(String field);

  /** Every value of {@code field}, as text, in the order written; empty if it has none. */
  List<String> values(String field);

  /** The instant a date field holds (epoch milliseconds), or {@code null} if it has none. */
  Instant instant(String field);

  /**
   * The record this document was written from. Fields a document lacks are absent from the record
   * (null, or empty lists), as for records indexed before {@code updated_at} and {@code
   * date_source} existed.
   */
  default CorpusRecord toRecord() {
    return new CorpusRecord(
        value(KEY),
        value(KIND),
        value(SOURCE_TYPE),
        value(TITLE),
        value(URL),
        value(PATH),
        value(AUTHOR),
        values(TAGS),
        instant(CREATED_AT),
        instant(PUBLISHED_AT),
        value(RAW_TEXT),
        value(SUMMARY),
        values(LINKS),
        value(ORIGIN),
        values(ALIASES),
        instant(UPDATED_AT),
        value(DATE_SOURCE));
  }
}
