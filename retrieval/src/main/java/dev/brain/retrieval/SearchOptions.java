package dev.brain.retrieval;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How one search runs. Start from {@link #defaults()} or {@link #builder()}; every field has a
 * documented default. Values are checked here (ranges, unknown names); source types are checked
 * against the index by {@link Retriever#search}.
 *
 * @param lanes the lanes to run; default {@code bm25, vector, exact_tag} ({@link #DEFAULT_LANES}).
 *     {@code related} adds link neighbours of the top rows as extra rows
 * @param limit evidence rows (records) to return, 1 to {@value #MAX_LIMIT}; default {@value
 *     #DEFAULT_LIMIT}. Related rows come on top, up to {@code relatedLimit}
 * @param filters which records may be returned; default none
 * @param fusion how lanes are combined; default {@link FusionMode#RRF}
 * @param rrfK the {@code k} of reciprocal-rank fusion; default {@value #DEFAULT_RRF_K}
 * @param weights weight per fused lane ({@code bm25}, {@code vector}, {@code exact_tag}), each
 *     {@code >= 0}; lanes not named get {@link #DEFAULT_WEIGHTS}
 * @param depth chunk hits each lane retrieves before fusion; default {@value #DEFAULT_DEPTH}, and
 *     never fewer than 3 x {@code limit} (see {@link #effectiveDepth()})
 * @param maxExcerptChars longest excerpt, ellipses included; default {@value
 *     #DEFAULT_MAX_EXCERPT_CHARS}
 * @param maxChunksPerRecord chunks of one record kept on its row; default {@value
 *     #DEFAULT_MAX_CHUNKS_PER_RECORD}
 * @param vectorSearch exact or HNSW search in the vector lane; default {@link VectorSearch#AUTO}
 * @param relatedLimit most related rows added when the {@code related} lane is on; default {@value
 *     #DEFAULT_RELATED_LIMIT}
 * @param vectorFloor the relevance floor of vector-only rows, 0 to 1: a record only the vector lane
 *     found is left out when its cosine is below {@code vectorFloor} times the best cosine of the
 *     search, and {@link SearchResult#weakRowsLeftOut()} counts it; default 0 (every row kept, what
 *     research and the evals pool); the surfaces a person reads take {@code retrieval.vector-floor}
 * @param tagOnlyBelowWords whether a row whose only match is a tag (found by the exact-tag lane,
 *     none of the query's words in its own text, the tag not asked for as {@code #tag}) ranks below
 *     every row that holds a query word; default false (fused order, what research ranks from); the
 *     surfaces a person reads turn it on
 */
public record SearchOptions(
    Set<Lane> lanes,
    int limit,
    SearchFilters filters,
    FusionMode fusion,
    @JsonProperty("rrf_k") int rrfK,
    Map<Lane, Double> weights,
    int depth,
    @JsonProperty("max_excerpt_chars") int maxExcerptChars,
    @JsonProperty("max_chunks_per_record") int maxChunksPerRecord,
    @JsonProperty("vector_search") VectorSearch vectorSearch,
    @JsonProperty("related_limit") int relatedLimit,
    @JsonProperty("vector_floor") double vectorFloor,
    @JsonProperty("tag_only_below_words") boolean tagOnlyBelowWords) {

  /** Lanes run when none are named: both retrieval lanes and exact tags. */
  public static final Set<Lane> DEFAULT_LANES =
      Collections.unmodifiableSet(EnumSet.of(Lane.BM25, Lane.VECTOR, Lane.EXACT_TAG));

  /** Default {@link #limit()}. */
  public static final int DEFAULT_LIMIT = 10;

  /** Largest {@link #limit()}. */
  public static final int MAX_LIMIT = 1000;

  /** Default {@link #rrfK()}: the constant of the original RRF paper. */
  public static final int DEFAULT_RRF_K = 60;

  /** Default {@link #depth()}. */
  public static final int DEFAULT_DEPTH = 100;

  /** Largest {@link #depth()}. */
  public static final int MAX_DEPTH = 10_000;

  /** Default {@link #maxExcerptChars()}. */
  public static final int DEFAULT_MAX_EXCERPT_CHARS = 600;

  /** Default {@link #maxChunksPerRecord()}. */
  public static final int DEFAULT_MAX_CHUNKS_PER_RECORD = 3;

  /**
   * The measured relevance floor of vector-only rows ({@link #vectorFloor()}): above the weak
   * vector-only rows of most one-hit queries on the sample vault and two documentation sets, below
   * the vector-only rows that answer a question by meaning alone (module README, "Relevance
   * floor"). The default of {@code retrieval.vector-floor}, what the surfaces a person reads use;
   * {@link #defaults()} keeps every row.
   */
  public static final double MEASURED_VECTOR_FLOOR = 0.87;

  /** Default {@link #relatedLimit()}. */
  public static final int DEFAULT_RELATED_LIMIT = 5;

  /**
   * With {@link VectorSearch#AUTO}, candidate sets of at most this many chunks are scanned exactly
   * (a few milliseconds at 384 dimensions); larger ones use HNSW.
   */
  public static final int EXACT_SEARCH_MAX_CHUNKS = 4096;

  /**
   * Default lane weights, chosen on BEIR SciFact (see the module README): every lane 1.0. The
   * exact-tag lane is rare and strong; a weight of 1.0 lets a rank-1 tag match count like a rank-1
   * hit in either retrieval lane.
   */
  public static final Map<Lane, Double> DEFAULT_WEIGHTS =
      Collections.unmodifiableMap(
          new EnumMap<>(Map.of(Lane.BM25, 1.0, Lane.VECTOR, 1.0, Lane.EXACT_TAG, 1.0)));

  /**
   * @throws InvalidSearchException if a value is out of range or no lane is given
   */
  public SearchOptions {
    lanes =
        lanes == null || lanes.isEmpty()
            ? null
            : Collections.unmodifiableSet(EnumSet.copyOf(lanes));
    if (lanes == null) {
      throw new InvalidSearchException("lanes", "at least one lane is needed", Lane.wireNames());
    }
    requireRange("limit", limit, 1, MAX_LIMIT);
    filters = filters == null ? SearchFilters.NONE : filters;
    fusion = fusion == null ? FusionMode.RRF : fusion;
    requireRange("rrf_k", rrfK, 1, 10_000);
    weights = mergeWeights(weights);
    requireRange("depth", depth, 1, MAX_DEPTH);
    requireRange("max_excerpt_chars", maxExcerptChars, 40, 100_000);
    requireRange("max_chunks_per_record", maxChunksPerRecord, 1, 50);
    vectorSearch = vectorSearch == null ? VectorSearch.AUTO : vectorSearch;
    requireRange("related_limit", relatedLimit, 0, 100);
    if (!(vectorFloor >= 0 && vectorFloor <= 1)) {
      throw new InvalidSearchException(
          "vector_floor", "must be a number from 0 to 1, got " + vectorFloor);
    }
  }

  /** Every default. */
  public static SearchOptions defaults() {
    return builder().build();
  }

  /** A builder holding every default. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these options. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Whether {@code lane} runs. */
  public boolean uses(Lane lane) {
    return lanes.contains(lane);
  }

  /** The weight of a fused lane. */
  public double weight(Lane lane) {
    return weights.getOrDefault(lane, 1.0);
  }

  /**
   * Chunk hits per lane actually retrieved: {@link #depth()}, but at least 3 x {@link #limit()}.
   */
  @JsonIgnore
  public int effectiveDepth() {
    return Math.min(MAX_DEPTH, Math.max(depth, 3 * limit));
  }

  private static Map<Lane, Double> mergeWeights(Map<Lane, Double> given) {
    var merged = new EnumMap<Lane, Double>(DEFAULT_WEIGHTS);
    if (given != null) {
      given.forEach(
          (lane, w) -> {
            if (w == null || w.isNaN() || w < 0 || w.isInfinite()) {
              throw new InvalidSearchException(
                  "weights",
                  "the weight of " + lane.wireName() + " must be a number >= 0, got " + w);
            }
            merged.put(lane, w);
          });
    }
    return Collections.unmodifiableMap(merged);
  }

  private static void requireRange(String field, int value, int min, int max) {
    if (value < min || value > max) {
      throw new InvalidSearchException(
          field, "must be between " + min + " and " + max + ", got " + value);
    }
  }

  /** Builds {@link SearchOptions}; starts from every default. */
  public static final class Builder {
    private Set<Lane> lanes = DEFAULT_LANES;
    private int limit = DEFAULT_LIMIT;
    private SearchFilters filters = SearchFilters.NONE;
    private FusionMode fusion = FusionMode.RRF;
    private int rrfK = DEFAULT_RRF_K;
    private Map<Lane, Double> weights = DEFAULT_WEIGHTS;
    private int depth = DEFAULT_DEPTH;
    private int maxExcerptChars = DEFAULT_MAX_EXCERPT_CHARS;
    private int maxChunksPerRecord = DEFAULT_MAX_CHUNKS_PER_RECORD;
    private VectorSearch vectorSearch = VectorSearch.AUTO;
    private int relatedLimit = DEFAULT_RELATED_LIMIT;
    private double vectorFloor;
    private boolean tagOnlyBelowWords;

    private Builder() {}

    private Builder(SearchOptions o) {
      lanes = o.lanes;
      limit = o.limit;
      filters = o.filters;
      fusion = o.fusion;
      rrfK = o.rrfK;
      weights = o.weights;
      depth = o.depth;
      maxExcerptChars = o.maxExcerptChars;
      maxChunksPerRecord = o.maxChunksPerRecord;
      vectorSearch = o.vectorSearch;
      relatedLimit = o.relatedLimit;
      vectorFloor = o.vectorFloor;
      tagOnlyBelowWords = o.tagOnlyBelowWords;
    }

    /** The lanes to run. */
    public Builder lanes(Collection<Lane> value) {
      lanes = value == null || value.isEmpty() ? Set.of() : EnumSet.copyOf(value);
      return this;
    }

    /** The lanes to run. */
    public Builder lanes(Lane... value) {
      return lanes(List.of(value));
    }

    /** The lanes to run, as a comma-separated list of wire names ({@code bm25,vector}). */
    public Builder lanes(String csv) {
      return lanes(Lane.parseList(csv));
    }

    /** The default lanes without {@code vector}: lexical debugging ({@code --no-semantic}). */
    public Builder withoutVector() {
      var without = EnumSet.copyOf(lanes);
      without.remove(Lane.VECTOR);
      return lanes(without);
    }

    /** Rows to return. */
    public Builder limit(int value) {
      limit = value;
      return this;
    }

    /** Record filters. */
    public Builder filters(SearchFilters value) {
      filters = Objects.requireNonNull(value, "filters");
      return this;
    }

    /** Fusion mode. */
    public Builder fusion(FusionMode value) {
      fusion = Objects.requireNonNull(value, "fusion");
      return this;
    }

    /** The {@code k} of reciprocal-rank fusion. */
    public Builder rrfK(int value) {
      rrfK = value;
      return this;
    }

    /** One lane's fusion weight. */
    public Builder weight(Lane lane, double value) {
      var next = new EnumMap<Lane, Double>(weights);
      next.put(lane, value);
      weights = next;
      return this;
    }

    /** Fusion weights; lanes not named keep their defaults. */
    public Builder weights(Map<Lane, Double> value) {
      var next = new EnumMap<Lane, Double>(DEFAULT_WEIGHTS);
      next.putAll(value);
      weights = next;
      return this;
    }

    /** Chunk hits per lane. */
    public Builder depth(int value) {
      depth = value;
      return this;
    }

    /** Longest excerpt. */
    public Builder maxExcerptChars(int value) {
      maxExcerptChars = value;
      return this;
    }

    /** Chunks kept per record. */
    public Builder maxChunksPerRecord(int value) {
      maxChunksPerRecord = value;
      return this;
    }

    /** Exact or HNSW vector search. */
    public Builder vectorSearch(VectorSearch value) {
      vectorSearch = Objects.requireNonNull(value, "vectorSearch");
      return this;
    }

    /** Most related rows. */
    public Builder relatedLimit(int value) {
      relatedLimit = value;
      return this;
    }

    /** The relevance floor of vector-only rows (0 keeps every row). */
    public Builder vectorFloor(double value) {
      vectorFloor = value;
      return this;
    }

    /** Whether a row whose only match is a tag ranks below the rows holding the query's words. */
    public Builder tagOnlyBelowWords(boolean value) {
      tagOnlyBelowWords = value;
      return this;
    }

    /**
     * The options.
     *
     * @throws InvalidSearchException if a value is out of range
     */
    public SearchOptions build() {
      return new SearchOptions(
          lanes,
          limit,
          filters,
          fusion,
          rrfK,
          weights,
          depth,
          maxExcerptChars,
          maxChunksPerRecord,
          vectorSearch,
          relatedLimit,
          vectorFloor,
          tagOnlyBelowWords);
    }
  }
}
