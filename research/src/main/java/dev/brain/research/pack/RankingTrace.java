package dev.brain.research.pack;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What a pack's retrieval and ranking did, for run traces: the keys each query variant returned,
 * each candidate's score before and after the concept re-scoring ({@link EvidenceRanking}), and the
 * candidates left out of the pack with why. Bounded, so a trace does not grow with the index: at
 * most the pack's limit of keys per variant and twice that of re-scored and of dropped rows ({@link
 * #droppedMore()} counts the dropped rows not listed).
 *
 * <p>Research-internal: public only for the run package; not API.
 *
 * @param variants one entry per variant searched, in search order
 * @param rescored the best candidates by their score after re-scoring, best first
 * @param dropped candidates left out of the pack, best first
 * @param droppedMore dropped candidates beyond the ones listed
 */
public record RankingTrace(
    List<VariantKeys> variants,
    List<Rescore> rescored,
    List<Dropped> dropped,
    @JsonProperty("dropped_more") int droppedMore) {

  /** {@link Dropped#reason()}: it matches no required concept and is not semantically strong. */
  public static final String OFF_TOPIC = "off_topic";

  /** {@link Dropped#reason()}: it ranked below the pack's limit of rows. */
  public static final String PAST_LIMIT = "past_limit";

  /** {@link Dropped#reason()}: no candidate was direct evidence, so the pack has none. */
  public static final String NO_DIRECT_EVIDENCE = "no_direct_evidence";

  /** {@link Dropped#reason()}: left out of the synthesis input by {@code max_evidence_chars}. */
  public static final String EVIDENCE_BUDGET = "evidence_budget";

  public RankingTrace {
    variants = List.copyOf(variants);
    rescored = List.copyOf(rescored);
    dropped = List.copyOf(dropped);
  }

  /**
   * The keys one query variant's search returned.
   *
   * @param query the variant's search text
   * @param rows rows the search returned (all of them, listed or not)
   * @param keys the first rows' keys, in rank order, at most the pack's limit
   */
  public record VariantKeys(String query, int rows, List<KeyScore> keys) {
    public VariantKeys {
      keys = List.copyOf(keys);
    }
  }

  /**
   * One row of a variant's search.
   *
   * @param sourceKey the record's key
   * @param lanes the lanes that found it ({@code bm25}, {@code vector}, {@code exact_tag})
   * @param score its fused score in that search
   */
  public record KeyScore(
      @JsonProperty("source_key") String sourceKey, List<String> lanes, double score) {
    public KeyScore {
      lanes = List.copyOf(lanes);
    }
  }

  /**
   * A candidate's score before and after the re-scoring by the question's concepts.
   *
   * @param sourceKey the record's key
   * @param before the combined rank over the variants (1 for rank 1 in every variant)
   * @param after the score it was ranked by: {@code before} weighed by concept coverage, source
   *     hint and the all-required bonus
   * @param rank its rank in the pack, or {@code null} when it was dropped
   */
  public record Rescore(
      @JsonProperty("source_key") String sourceKey,
      double before,
      double after,
      @JsonInclude(JsonInclude.Include.NON_NULL) Integer rank) {}

  /**
   * A row left out, and why.
   *
   * @param sourceKey the record's key
   * @param reason {@value #OFF_TOPIC}, {@value #PAST_LIMIT}, {@value #NO_DIRECT_EVIDENCE} or
   *     {@value #EVIDENCE_BUDGET}
   */
  public record Dropped(@JsonProperty("source_key") String sourceKey, String reason) {}
}
