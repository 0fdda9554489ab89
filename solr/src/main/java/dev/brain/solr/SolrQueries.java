package dev.brain.solr;

import dev.brain.chunking.ChunkRole;
import dev.brain.index.IndexFields;
import dev.brain.retrieval.DateRange;
import dev.brain.retrieval.SearchFilters;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.solr.client.solrj.util.ClientUtils;

/**
 * Solr filter queries for {@link SearchFilters}, the same restrictions the embedded index's filter
 * applies: the filter fields sit on records and, denormalized, on every chunk.
 */
final class SolrQueries {
  private SolrQueries() {}

  static final String CHUNKS = IndexFields.DOC_TYPE + ":" + IndexFields.CHUNK;
  static final String RECORDS = IndexFields.DOC_TYPE + ":" + IndexFields.RECORD;

  /**
   * One {@code fq} per restriction; only the one keeping brain's research sections out when nothing
   * else is filtered.
   */
  static List<String> filters(SearchFilters filters) {
    var fq = new ArrayList<String>();
    if (!filters.kinds().isEmpty()) {
      fq.add(anyOf(IndexFields.KIND, filters.kinds()));
    }
    if (!filters.sourceTypes().isEmpty()) {
      fq.add(anyOf(IndexFields.SOURCE_TYPE, filters.sourceTypes()));
    }
    for (String tag : filters.tags()) {
      fq.add(term(IndexFields.TAGS, tag));
    }
    for (DateRange range : filters.dateRanges()) {
      String field =
          switch (range.field()) {
            case CREATED_AT -> IndexFields.CREATED_AT;
            case PUBLISHED_AT -> IndexFields.PUBLISHED_AT;
          };
      String from = range.from() == null ? "*" : Long.toString(range.from().toEpochMilli());
      String to = range.to() == null ? "*" : Long.toString(range.to().toEpochMilli());
      fq.add(field + ":[" + from + " TO " + to + "]");
    }
    if (!filters.includeBrainWritten()) {
      fq.add(NOT_BRAIN_WRITTEN);
    }
    return fq;
  }

  /**
   * Every document but the chunks of a research section brain wrote into a note: brain's derived
   * text, no evidence unless a search includes it (records have no role and pass).
   */
  static final String NOT_BRAIN_WRITTEN =
      "-" + IndexFields.ROLE + ":" + ChunkRole.BRAIN_WRITTEN.wireName();

  /** Documents whose string {@code field} is {@code value}. */
  static String term(String field, String value) {
    return field + ":" + ClientUtils.escapeQueryChars(value);
  }

  /** Documents whose string {@code field} has any of {@code values}. */
  static String anyOf(String field, Collection<String> values) {
    var parts = new ArrayList<String>(values.size());
    values.forEach(v -> parts.add(ClientUtils.escapeQueryChars(v)));
    return field + ":(" + String.join(" OR ", parts) + ")";
  }

  /**
   * The query's words for edismax: every character that is query syntax escaped, so a user's {@code
   * C++ -O2 "fast"} is searched as words, like the embedded lane analyzes them; whitespace is kept,
   * so each word is its own clause.
   */
  static String words(String text) {
    var out = new StringBuilder(text.length() + 16);
    for (String word : text.strip().split("\\s+")) {
      if (word.isEmpty()) {
        continue;
      }
      if (out.length() > 0) {
        out.append(' ');
      }
      String escaped = ClientUtils.escapeQueryChars(word);
      // edismax reads bare AND/OR/NOT as operators whatever their case settings; quote them.
      out.append(isOperator(word) ? "\"" + word + "\"" : escaped);
    }
    return out.toString();
  }

  private static boolean isOperator(String word) {
    return word.equals("AND") || word.equals("OR") || word.equals("NOT");
  }
}
