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
 */
public record RetrievalSettings(
    int limit, FusionMode fusion, int rrfK, Map<Lane, Double> weights, int depth) {

  public RetrievalSettings {
    weights = Map.copyOf(weights);
  }

  /** Search options with these defaults. */
  public SearchOptions searchOptions() {
    return SearchOptions.builder()
        .limit(limit)
        .fusion(fusion)
        .rrfK(rrfK)
        .weights(weights)
        .depth(depth)
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
    return new RetrievalSettings(limit, fusion, rrfK, weights, depth);
  }
}
