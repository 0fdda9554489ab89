package dev.brain.retrieval;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexInternals;
import dev.brain.retrieval.Fusion.FusedRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;

/**
 * The measurements behind the module's defaults, on the cached SciFact index of {@link
 * SciFactBench}. Modes: {@code defaults} (the shipped settings through {@link Retriever#search}),
 * {@code bm25} (a grid over k1, b and boosts), {@code fusion} (RRF k and weights, normalized
 * weights), {@code recall} (HNSW recall@10 against exact search, with latencies).
 */
final class SciFactEval {
  private SciFactEval() {}

  /** Chunk hits per lane: what {@code Retriever.search} retrieves for limit 100 (3 x limit). */
  private static final int DEPTH = Integer.getInteger("depth", 300);

  static void run(Path dataset, Path cache, List<String> args) throws IOException {
    var qrels = SciFactBench.qrels(dataset);
    var queries = SciFactBench.queries(dataset, qrels.keySet());
    String mode = args.isEmpty() ? "defaults" : args.get(0);
    try (BrainIndex index = SciFactBench.open(cache)) {
      var eval = new Context(index, qrels, queries);
      switch (mode) {
        case "defaults" -> eval.defaults();
        case "bm25" -> eval.bm25Grid();
        case "fusion" -> eval.fusionGrid();
        case "recall" -> eval.recall();
        case "recall-vs" -> eval.recallAgainst(Path.of(args.get(1)));
        default ->
            throw new IllegalArgumentException("defaults | bm25 | fusion | recall | recall-vs DIR");
      }
    }
  }

  private static final class Context {
    final BrainIndex index;
    final Map<String, Map<String, Integer>> qrels;
    final Map<String, String> queries;
    final Map<String, float[]> vectors = new LinkedHashMap<>();

    Context(
        BrainIndex index, Map<String, Map<String, Integer>> qrels, Map<String, String> queries) {
      this.index = index;
      this.qrels = qrels;
      this.queries = queries;
    }

    float[] vector(String id) {
      return vectors.computeIfAbsent(id, k -> index.embedder().embedQuery(queries.get(k)));
    }

    /** nDCG@10 and Recall@100 of a ranking function over every test query. */
    double[] score(Function<String, List<String>> ranking) {
      double ndcg = 0;
      double recall = 0;
      for (String id : queries.keySet()) {
        List<String> ranked = ranking.apply(id);
        ndcg += SciFactBench.ndcg(ranked, qrels.get(id), 10);
        recall += SciFactBench.recall(ranked, qrels.get(id), 100);
      }
      return new double[] {ndcg / queries.size(), recall / queries.size()};
    }

    /** Doc ids in rank order (records by best chunk), without the query's own id. */
    static List<String> docs(String queryId, List<Hit> hits) {
      var ids = new LinkedHashSet<String>();
      for (Hit h : hits) {
        String id = h.key().substring("doc:".length());
        if (!id.equals(queryId)) {
          ids.add(id);
        }
      }
      return new ArrayList<>(ids);
    }

    static List<String> fusedDocs(String queryId, List<FusedRecord> fused) {
      var ids = new ArrayList<String>();
      for (FusedRecord r : fused) {
        String id = r.key().substring("doc:".length());
        if (!id.equals(queryId)) {
          ids.add(id);
        }
      }
      return ids;
    }

    Map<String, List<Hit>> bm25Hits(Bm25Lane.Params params) throws IOException {
      var lane = new Bm25Lane(IndexInternals.analyzer(index), params);
      var out = new LinkedHashMap<String, List<Hit>>();
      IndexSearcher searcher = IndexInternals.acquireSearcher(index);
      try {
        for (var q : queries.entrySet()) {
          QueryText text = QueryText.parse(q.getValue(), IndexInternals.analyzer(index));
          out.put(q.getKey(), lane.search(searcher, text, null, DEPTH).hits());
        }
      } finally {
        IndexInternals.releaseSearcher(index, searcher);
      }
      return out;
    }

    Map<String, List<Hit>> vectorHits(VectorSearch mode) throws IOException {
      var out = new LinkedHashMap<String, List<Hit>>();
      IndexSearcher searcher = IndexInternals.acquireSearcher(index);
      try {
        int count = searcher.count(new FieldExistsQuery(dev.brain.index.IndexFields.VECTOR));
        for (String id : queries.keySet()) {
          out.put(id, LuceneVectors.search(searcher, vector(id), null, DEPTH, mode, count).hits());
        }
      } finally {
        IndexInternals.releaseSearcher(index, searcher);
      }
      return out;
    }

    double[] fused(
        Map<String, List<Hit>> bm25,
        Map<String, List<Hit>> vector,
        FusionMode mode,
        int k,
        double wBm25,
        double wVector) {
      return score(
          id -> {
            var lanes = new EnumMap<Lane, List<Hit>>(Lane.class);
            lanes.put(Lane.BM25, bm25.get(id));
            lanes.put(Lane.VECTOR, vector.get(id));
            return fusedDocs(
                id, Fusion.fuse(lanes, mode, k, Map.of(Lane.BM25, wBm25, Lane.VECTOR, wVector)));
          });
    }

    static void print(String label, double[] s) {
      System.out.printf("%-60s nDCG@10 %.4f  R@100 %.4f%n", label, s[0], s[1]);
    }

    /** The shipped defaults, end to end through Retriever.search (limit 100). */
    void defaults() throws IOException {
      var retriever = new Retriever(index);
      vector(queries.keySet().iterator().next()); // load the model before timing
      for (String lanes : List.of("bm25", "vector", "bm25,vector")) {
        SearchOptions options = SearchOptions.builder().lanes(lanes).limit(100).build();
        var timings = new LinkedHashMap<String, Double>();
        long t0 = System.nanoTime();
        double[] s =
            score(
                id -> {
                  try {
                    SearchResult result = retriever.search(queries.get(id), options);
                    result.timingsMs().forEach((k, v) -> timings.merge(k, v, Double::sum));
                    return result.rows().stream()
                        .map(r -> r.sourceKey().substring("doc:".length()))
                        .filter(d -> !d.equals(id))
                        .toList();
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                });
        double qps = queries.size() / ((System.nanoTime() - t0) / 1e9);
        print("Retriever.search lanes=" + lanes + String.format(" (%.1f q/s)", qps), s);
        timings.replaceAll((k, v) -> Math.round(v / queries.size() * 100) / 100.0);
        System.out.println("  mean ms per query: " + timings);
      }
    }

    void bm25Grid() throws IOException {
      for (float title : new float[] {0f, 0.25f, 0.4f, 0.5f, 0.6f, 0.75f, 1.0f}) {
        for (float k1 : new float[] {0.9f, 1.2f, 1.5f}) {
          for (float b : new float[] {0.3f, 0.4f, 0.6f, 0.75f}) {
            var p = new Bm25Lane.Params(k1, b, title, 0.5f, 0.5f, 2, 2.0f);
            print("bm25 " + p, score(bm25Ranking(bm25Hits(p))));
          }
        }
      }
      for (float phrase : new float[] {0f, 0.25f, 1.0f, 2.0f}) {
        var d = Bm25Lane.Params.DEFAULTS;
        var p = new Bm25Lane.Params(d.k1(), d.b(), d.titleBoost(), 0.5f, phrase, 2, 2.0f);
        print("bm25 " + p, score(bm25Ranking(bm25Hits(p))));
      }
    }

    Function<String, List<String>> bm25Ranking(Map<String, List<Hit>> hits) {
      return id -> docs(id, hits.get(id));
    }

    void fusionGrid() throws IOException {
      var bm25 = bm25Hits(Bm25Lane.Params.DEFAULTS);
      var vector = vectorHits(VectorSearch.AUTO);
      print("bm25 " + Bm25Lane.Params.DEFAULTS, score(id -> docs(id, bm25.get(id))));
      print("vector (auto)", score(id -> docs(id, vector.get(id))));
      var exact = vectorHits(VectorSearch.EXACT);
      print("vector (exact)", score(id -> docs(id, exact.get(id))));
      for (int k : new int[] {10, 30, 60, 100}) {
        for (double w : new double[] {0.5, 0.7, 0.8, 1.0, 1.25, 1.5}) {
          print(
              "rrf k=" + k + " w_bm25=" + w + " w_vector=1",
              fused(bm25, vector, FusionMode.RRF, k, w, 1.0));
        }
      }
      for (double w : new double[] {0.3, 0.5, 0.7, 0.8, 1.0, 1.25, 1.5}) {
        print(
            "normalized w_bm25=" + w + " w_vector=1",
            fused(bm25, vector, FusionMode.NORMALIZED, 60, w, 1.0));
      }
    }

    /**
     * Recall@10 of this (quantized) index against an exact float scan of the reference index at
     * {@code floatCache}, matched by chunk id: of this index's exact scan, and of its HNSW search
     * at the lane's default depth (100).
     */
    void recallAgainst(Path floatCache) throws IOException {
      try (BrainIndex reference = SciFactBench.open(floatCache)) {
        IndexSearcher ref = IndexInternals.acquireSearcher(reference);
        IndexSearcher searcher = IndexInternals.acquireSearcher(index);
        try {
          int count = searcher.count(new FieldExistsQuery(dev.brain.index.IndexFields.VECTOR));
          double exact = 0;
          double hnsw = 0;
          for (String id : queries.keySet()) {
            Set<String> truth = chunkIds(ref, LuceneVectors.exactSearch(ref, vector(id), null, 10));
            Set<String> scan =
                chunkIds(searcher, LuceneVectors.exactSearch(searcher, vector(id), null, 10));
            ScoreDoc[] graph =
                LuceneVectors.search(
                        searcher, vector(id), null, 100, VectorSearch.APPROXIMATE, count)
                    .hits()
                    .stream()
                    .limit(10)
                    .map(h -> new ScoreDoc(h.doc(), 0))
                    .toArray(ScoreDoc[]::new);
            Set<String> approx = chunkIds(searcher, graph);
            scan.retainAll(truth);
            approx.retainAll(truth);
            exact += scan.size() / (double) truth.size();
            hnsw += approx.size() / (double) truth.size();
          }
          int n = queries.size();
          System.out.printf(
              "against exact float search: exact scan recall@10 %.4f, hnsw (k=100) recall@10 %.4f%n",
              exact / n, hnsw / n);
        } finally {
          IndexInternals.releaseSearcher(index, searcher);
          IndexInternals.releaseSearcher(reference, ref);
        }
      }
    }

    private static Set<String> chunkIds(IndexSearcher searcher, ScoreDoc[] docs)
        throws IOException {
      var ids = new HashSet<String>();
      for (ScoreDoc d : docs) {
        ids.add(searcher.storedFields().document(d.doc).get(dev.brain.index.IndexFields.CHUNK_ID));
      }
      return ids;
    }

    /** HNSW recall@10 of chunk hits against exact search, and per-query latency of each. */
    void recall() throws IOException {
      IndexSearcher searcher = IndexInternals.acquireSearcher(index);
      try {
        for (String id : queries.keySet()) {
          vector(id);
        }
        int count = searcher.count(new FieldExistsQuery(dev.brain.index.IndexFields.VECTOR));
        for (int k : new int[] {10, 100}) {
          double recall = 0;
          long exactNanos = 0;
          long hnswNanos = 0;
          for (int round = 0; round < 2; round++) { // first round warms up
            recall = 0;
            exactNanos = 0;
            hnswNanos = 0;
            for (String id : queries.keySet()) {
              long t0 = System.nanoTime();
              ScoreDoc[] exact = LuceneVectors.exactSearch(searcher, vector(id), null, k);
              long t1 = System.nanoTime();
              List<Hit> hnsw =
                  LuceneVectors.search(
                          searcher, vector(id), null, k, VectorSearch.APPROXIMATE, count)
                      .hits();
              long t2 = System.nanoTime();
              exactNanos += t1 - t0;
              hnswNanos += t2 - t1;
              var truth = new HashSet<Integer>();
              for (int i = 0; i < Math.min(10, exact.length); i++) {
                truth.add(exact[i].doc);
              }
              long found = hnsw.stream().limit(10).filter(h -> truth.contains(h.doc())).count();
              recall += (double) found / truth.size();
            }
          }
          int n = queries.size();
          System.out.printf(
              "k=%d over %d chunks: HNSW recall@10 %.4f; mean latency exact %.2f ms, hnsw %.2f ms%n",
              k, count, recall / n, exactNanos / 1e6 / n, hnswNanos / 1e6 / n);
        }
      } finally {
        IndexInternals.releaseSearcher(index, searcher);
      }
    }
  }
}
