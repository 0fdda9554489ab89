package dev.brain.retrieval;

import dev.brain.chunking.ChunkRole;
import dev.brain.index.IndexFields;
import java.util.Collection;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.LongField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Lucene queries for {@link SearchFilters}. The filter fields sit on record documents and,
 * denormalized, on every chunk document, so one filter query serves every lane.
 */
final class Filters {
  private Filters() {}

  static final Query CHUNKS = new TermQuery(new Term(IndexFields.DOC_TYPE, IndexFields.CHUNK));
  static final Query RECORDS = new TermQuery(new Term(IndexFields.DOC_TYPE, IndexFields.RECORD));

  /** Chunks of a research section brain wrote into a note ({@code ChunkRole.BRAIN_WRITTEN}). */
  static final Query BRAIN_WRITTEN =
      new TermQuery(new Term(IndexFields.ROLE, ChunkRole.BRAIN_WRITTEN.wireName()));

  /**
   * The filter as one query, or {@code null} when nothing is filtered.
   *
   * @param brainWritten whether the index holds chunks of brain's research sections: only then are
   *     they filtered out (unless the filters include them), so other indexes pay nothing
   */
  static Query query(SearchFilters filters, boolean brainWritten) {
    boolean dropDerived = brainWritten && !filters.includeBrainWritten();
    if (filters.isEmpty() && !dropDerived) {
      return null;
    }
    var b = new BooleanQuery.Builder();
    if (dropDerived) {
      // record documents have no role and pass; a query of MUST_NOT alone would match nothing
      b.add(MatchAllDocsQuery.INSTANCE, Occur.FILTER).add(BRAIN_WRITTEN, Occur.MUST_NOT);
    }
    if (!filters.kinds().isEmpty()) {
      b.add(anyOf(IndexFields.KIND, filters.kinds()), Occur.FILTER);
    }
    if (!filters.sourceTypes().isEmpty()) {
      b.add(anyOf(IndexFields.SOURCE_TYPE, filters.sourceTypes()), Occur.FILTER);
    }
    for (String tag : filters.tags()) {
      b.add(KeywordField.newExactQuery(IndexFields.TAGS, tag), Occur.FILTER);
    }
    for (DateRange range : filters.dateRanges()) {
      b.add(dateQuery(range), Occur.FILTER);
    }
    return b.build();
  }

  /** Chunk documents passing the filter (all chunks when {@code filter} is null). */
  static Query chunks(Query filter) {
    return restrict(CHUNKS, filter);
  }

  /** Record documents passing the filter (all records when {@code filter} is null). */
  static Query records(Query filter) {
    return restrict(RECORDS, filter);
  }

  private static Query restrict(Query docType, Query filter) {
    var b = new BooleanQuery.Builder().add(docType, Occur.FILTER);
    if (filter != null) {
      b.add(filter, Occur.FILTER);
    }
    return b.build();
  }

  /** Documents whose keyword {@code field} has any of {@code values}. */
  static Query anyOf(String field, Collection<String> values) {
    return KeywordField.newSetQuery(field, values.stream().map(BytesRef::new).toList());
  }

  private static Query dateQuery(DateRange range) {
    String field =
        switch (range.field()) {
          case CREATED_AT -> IndexFields.CREATED_AT;
          case PUBLISHED_AT -> IndexFields.PUBLISHED_AT;
        };
    long from = range.from() == null ? Long.MIN_VALUE : range.from().toEpochMilli();
    long to = range.to() == null ? Long.MAX_VALUE : range.to().toEpochMilli();
    return LongField.newRangeQuery(field, from, to);
  }
}
