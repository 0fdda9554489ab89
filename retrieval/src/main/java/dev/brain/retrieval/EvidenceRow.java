package dev.brain.retrieval;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One record found by a search, with the evidence window and the provenance of its rank.
 *
 * @param rank 1-based position in the result (related rows follow the ranked rows)
 * @param sourceKey the record key: what a citation names
 * @param kind {@code item} or {@code source}
 * @param sourceType {@code note}, {@code web}, {@code pdf}, ...
 * @param title record title, or {@code null}
 * @param url canonical URL, or {@code null}
 * @param notePath vault-relative note path, or {@code null}
 * @param userTags the record's user tags
 * @param createdAt ISO-8601 instant the record was created or saved, or {@code null}
 * @param publishedAt ISO-8601 instant the source was published, or {@code null}
 * @param summary the record's derived summary, or {@code null} (derived, never raw evidence)
 * @param excerpt a window of at most {@link SearchOptions#maxExcerptChars()} characters of the
 *     record's text, centred on the query terms in the best chunk, cut at word boundaries, with
 *     {@code …} where text was cut and whitespace runs collapsed
 * @param evidenceRole {@code raw}, {@code summary}, {@code transcript} or {@code ocr} (the best
 *     chunk's role); {@code exact_tag} for a record found by its tags alone; {@code related} for a
 *     related row
 * @param chunk the chunks behind the row, or {@code null} for a record without chunks
 * @param retrieval lanes, ranks, raw scores, contributions and the fused score
 * @param signals short reasons for the match: {@code title_match}, {@code alias_match}, {@code
 *     heading_match}, {@code phrase_match}, {@code all_terms}, {@code exact_tag:<tag>}, {@code
 *     vector_only}, {@code bm25_only}, {@code lexical_and_semantic}, {@code
 *     related:<relationship>}, {@code summary} (a lane found the record through its summary: {@link
 *     LaneScore#role()})
 * @param matchedTerms query terms (stop words dropped, as typed, lower-cased) whose analyzed form
 *     occurs in the kept chunks, the title, the aliases, the best chunk's headings or the tags
 * @param missingTerms query terms that occur in none of them
 * @param relatedTo for a related row: the key of the ranked row it is linked with; else {@code
 *     null}
 * @param relationship for a related row: {@code links_to} (the ranked row links to this record) or
 *     {@code linked_from} (this record links to the ranked row); else {@code null}
 */
public record EvidenceRow(
    int rank,
    @JsonProperty("source_key") String sourceKey,
    String kind,
    @JsonProperty("source_type") String sourceType,
    String title,
    String url,
    @JsonProperty("note_path") String notePath,
    @JsonProperty("user_tags") List<String> userTags,
    @JsonProperty("created_at") String createdAt,
    @JsonProperty("published_at") String publishedAt,
    String summary,
    String excerpt,
    @JsonProperty("evidence_role") String evidenceRole,
    ChunkRef chunk,
    RowRetrieval retrieval,
    List<String> signals,
    @JsonProperty("matched_terms") List<String> matchedTerms,
    @JsonProperty("missing_terms") List<String> missingTerms,
    @JsonProperty("related_to") String relatedTo,
    String relationship) {

  /** {@link #relationship()} of a record the ranked row links to. */
  public static final String LINKS_TO = "links_to";

  /** {@link #relationship()} of a record that links to the ranked row. */
  public static final String LINKED_FROM = "linked_from";

  public EvidenceRow {
    userTags = List.copyOf(userTags);
    signals = List.copyOf(signals);
    matchedTerms = List.copyOf(matchedTerms);
    missingTerms = List.copyOf(missingTerms);
  }

  /** This row at another rank. */
  public EvidenceRow withRank(int rank) {
    return with(rank, excerpt, signals, matchedTerms, missingTerms);
  }

  /** This row with another excerpt. */
  public EvidenceRow withExcerpt(String excerpt) {
    return with(rank, excerpt, signals, matchedTerms, missingTerms);
  }

  /** This row with other signals and matched/missing terms (a caller's own reading of it). */
  public EvidenceRow withEvidence(
      List<String> signals, List<String> matchedTerms, List<String> missingTerms) {
    return with(rank, excerpt, signals, matchedTerms, missingTerms);
  }

  private EvidenceRow with(
      int rank,
      String excerpt,
      List<String> signals,
      List<String> matchedTerms,
      List<String> missingTerms) {
    return new EvidenceRow(
        rank,
        sourceKey,
        kind,
        sourceType,
        title,
        url,
        notePath,
        userTags,
        createdAt,
        publishedAt,
        summary,
        excerpt,
        evidenceRole,
        chunk,
        retrieval,
        signals,
        matchedTerms,
        missingTerms,
        relatedTo,
        relationship);
  }

  /** Whether this row came from the related lane rather than from the ranking. */
  @JsonIgnore
  public boolean isRelated() {
    return relatedTo != null;
  }

  /**
   * Whether this row is a weak match: it misses more of the query's words than it holds (found by
   * meaning or by a tag alone). Every surface flags such rows the same way; written to JSON as
   * {@code weak}, never read from it.
   */
  @JsonProperty(value = "weak", access = JsonProperty.Access.READ_ONLY)
  public boolean weak() {
    return !missingTerms.isEmpty() && missingTerms.size() > matchedTerms.size();
  }
}
