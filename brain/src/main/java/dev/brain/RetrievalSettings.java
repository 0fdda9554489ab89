package dev.brain;

import dev.brain.retrieval.FusionMode;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.SearchOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code retrieval.*}: the defaults of a search (CLI {@code brain search}, {@code GET /api/search},
 * {@link Brain#search(String)}); a request's own options win.
 *
 * @param limit rows returned; default {@value SearchOptions#DEFAULT_LIMIT}
 * @param fusion {@code rrf} (default) or {@code normalized}
 * @param rrfK the {@code k} of reciprocal-rank fusion; default {@value SearchOptions#DEFAULT_RRF_K}
 * @param weights weight of the {@code bm25}, {@code vector} and {@code exact-tag} lanes; default
 *     {@link SearchOptions#DEFAULT_WEIGHTS}
 * @param depth chunk hits per lane before fusion; default {@value SearchOptions#DEFAULT_DEPTH}
 * @param vectorFloor the relevance floor of vector-only rows ({@link SearchOptions#vectorFloor()}):
 *     such a row is left out when its cosine is below this share of the search's best; default
 *     {@value #DEFAULT_VECTOR_FLOOR}, 0 keeps every row
 */
public record RetrievalSettings(
    int limit,
    FusionMode fusion,
    int rrfK,
    Map<Lane, Double> weights,
    int depth,
    double vectorFloor) {

  /** Default {@link #vectorFloor()}: the measured {@link SearchOptions#MEASURED_VECTOR_FLOOR}. */
  public static final double DEFAULT_VECTOR_FLOOR = SearchOptions.MEASURED_VECTOR_FLOOR;

  public RetrievalSettings {
    weights = Map.copyOf(weights);
  }

  /**
   * Search options with these defaults, and a row whose only match is a tag ranked below the rows
   * holding the query's words ({@link SearchOptions#tagOnlyBelowWords()}).
   */
  public SearchOptions searchOptions() {
    return SearchOptions.builder()
        .limit(limit)
        .fusion(fusion)
        .rrfK(rrfK)
        .weights(weights)
        .depth(depth)
        .vectorFloor(vectorFloor)
        .tagOnlyBelowWords(true) // rows a person reads: a tag alone does not outrank the words
        .build();
  }

  /** The {@code retrieval.*} values of {@code r}: flag, environment, file or default. */
  static RetrievalSettings read(ConfigReader r) {
    var d = SearchOptions.defaults();
    var fusions = new LinkedHashMap<String, FusionMode>();
    for (FusionMode f : FusionMode.values()) {
      fusions.put(f.wireName(), f);
    }
    int limit = r.integer("retrieval.limit", null, d.limit(), 1, SearchOptions.MAX_LIMIT);
    FusionMode fusion = r.choice("retrieval.fusion", null, d.fusion(), fusions);
    int rrfK = r.integer("retrieval.rrf-k", null, d.rrfK(), 1, 10_000);
    var weights = new LinkedHashMap<Lane, Double>();
    for (Lane lane : List.of(Lane.BM25, Lane.VECTOR, Lane.EXACT_TAG)) {
      String name = lane.name().toLowerCase(Locale.ROOT).replace('_', '-');
      weights.put(lane, r.decimal("retrieval.weights." + name, null, d.weight(lane), 0, 100));
    }
    int depth = r.integer("retrieval.depth", null, d.depth(), 1, 10_000);
    double vectorFloor = r.decimal("retrieval.vector-floor", null, DEFAULT_VECTOR_FLOOR, 0, 1);
    return new RetrievalSettings(limit, fusion, rrfK, weights, depth, vectorFloor);
  }
}
