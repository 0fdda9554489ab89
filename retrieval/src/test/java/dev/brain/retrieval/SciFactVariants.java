package dev.brain.retrieval;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexFields;
import dev.brain.index.IndexInternals;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;

/**
 * Fusion and query-side variants tried on the way to SciFact's 0.74 hybrid bar (module README,
 * "What was tried"). Reads every chunk vector of the cached index once, scores each test query
 * exactly against all of them, and compares: RRF and min-max fusion (the shipped modes); z-score
 * and mean ± 3σ (DBSF) fusion with every candidate scored in both lanes; Rocchio-style vector
 * feedback (the query vector moved towards the top hits' vectors); the query embedded without bge's
 * query instruction, and both embeddings averaged. Ends with a two-fold check of what picking the
 * best variant on these queries is worth. Mode {@code variants} of {@link SciFactBench}.
 */
final class SciFactVariants {
  private SciFactVariants() {}

  private static final int DEPTH = 100;

  static void run(Path dataset, Path cache) throws IOException {
    var qrels = SciFactBench.qrels(dataset);
    var queries = SciFactBench.queries(dataset, qrels.keySet());
    try (BrainIndex index = SciFactBench.open(cache)) {
      IndexSearcher searcher = IndexInternals.acquireSearcher(index);
      try {
        var keys = new ArrayList<String>();
        var vectors = new ArrayList<float[]>();
        var docs = new ArrayList<Integer>();
        readVectors(searcher, keys, vectors, docs);
        var bm25 = new Bm25Lane(IndexInternals.analyzer(index), Bm25Lane.Params.DEFAULTS);
        var scores = new Scores();
        for (var q : queries.entrySet()) {
          var rel = qrels.get(q.getKey());
          scores.query(q.getKey());
          float[] query = index.embedder().embedQuery(q.getValue());
          List<Hit> lexical =
              bm25.search(
                      searcher,
                      QueryText.parse(q.getValue(), IndexInternals.analyzer(index)),
                      null,
                      DEPTH)
                  .hits();
          double[] cos = scores(query, vectors);
          List<Hit> dense = top(cos, keys, docs);
          scores.add("bm25", ndcg(q.getKey(), hitsDocs(lexical), rel));
          scores.add("vector", ndcg(q.getKey(), hitsDocs(dense), rel));
          scores.add("hybrid rrf k60", fused(q.getKey(), lexical, dense, FusionMode.RRF, rel));
          scores.add(
              "hybrid normalized", fused(q.getKey(), lexical, dense, FusionMode.NORMALIZED, rel));
          // The query embedded as a passage: without bge's query instruction.
          float[] plain = index.embedder().embedPassages(List.of(q.getValue())).getFirst();
          List<Hit> plainDense = top(scores(plain, vectors), keys, docs);
          addQueryVariant(scores, "no query instruction", q.getKey(), lexical, plainDense, rel);
          // Both embeddings of the query, averaged: the instruction's direction and the plain one.
          float[] mixed = query.clone();
          for (int j = 0; j < mixed.length; j++) {
            mixed[j] += plain[j];
          }
          normalize(mixed);
          List<Hit> mixedDense = top(scores(mixed, vectors), keys, docs);
          addQueryVariant(scores, "both query embeddings", q.getKey(), lexical, mixedDense, rel);
          Map<String, Double> bestCos = recordMax(cos, keys);
          Map<String, Double> bestBm25 = recordMax(lexical);
          for (double w : new double[] {0.8, 1.0, 1.2}) {
            scores.add(
                "hybrid z-score, w_bm25 " + w,
                complete(q.getKey(), bestBm25, bestCos, lexical, dense, w, false, rel));
            scores.add(
                "hybrid dbsf, w_bm25 " + w,
                complete(q.getKey(), bestBm25, bestCos, lexical, dense, w, true, rel));
          }
          for (int k : new int[] {3, 5}) {
            for (double beta : new double[] {0.3, 0.6}) {
              float[] moved = query.clone();
              for (int i = 0; i < k; i++) {
                float[] v = vectors.get(dense.get(i).doc());
                for (int j = 0; j < moved.length; j++) {
                  moved[j] += (float) (beta / k) * v[j];
                }
              }
              normalize(moved);
              List<Hit> feedback = top(scores(moved, vectors), keys, docs);
              String name = "vector feedback k" + k + " beta " + beta;
              scores.add(name, ndcg(q.getKey(), hitsDocs(feedback), rel));
              scores.add(
                  name + ", hybrid normalized",
                  fused(q.getKey(), lexical, feedback, FusionMode.NORMALIZED, rel));
            }
          }
        }
        System.out.printf(
            "%d queries, %d chunk vectors, depth %d per lane%n",
            queries.size(), vectors.size(), DEPTH);
        scores.print();
      } finally {
        IndexInternals.releaseSearcher(index, searcher);
      }
    }
  }

  /** A query-side variant of the vector lane: alone, and fused with BM25 in both modes. */
  private static void addQueryVariant(
      Scores scores,
      String name,
      String queryId,
      List<Hit> lexical,
      List<Hit> dense,
      Map<String, Integer> rel) {
    scores.add("vector, " + name, ndcg(queryId, hitsDocs(dense), rel));
    for (FusionMode mode : FusionMode.values()) {
      scores.add(
          "hybrid " + mode.wireName() + ", " + name, fused(queryId, lexical, dense, mode, rel));
    }
  }

  /** Every live chunk vector with its record key; {@code docs} holds list indexes as hit docs. */
  private static void readVectors(
      IndexSearcher searcher, List<String> keys, List<float[]> vectors, List<Integer> docs)
      throws IOException {
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      FloatVectorValues values = leaf.reader().getFloatVectorValues(IndexFields.VECTOR);
      if (values == null) {
        continue;
      }
      SortedSetDocValues parents = DocValues.getSortedSet(leaf.reader(), IndexFields.PARENT_KEY);
      var live = leaf.reader().getLiveDocs();
      KnnVectorValues.DocIndexIterator it = values.iterator();
      for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
        if ((live != null && !live.get(doc)) || !parents.advanceExact(doc)) {
          continue;
        }
        docs.add(vectors.size());
        keys.add(parents.lookupOrd(parents.nextOrd()).utf8ToString());
        vectors.add(values.vectorValue(it.index()).clone());
      }
    }
  }

  private static double[] scores(float[] query, List<float[]> vectors) {
    double[] out = new double[vectors.size()];
    for (int i = 0; i < out.length; i++) {
      float[] v = vectors.get(i);
      double dot = 0;
      for (int j = 0; j < v.length; j++) {
        dot += query[j] * v[j];
      }
      out[i] = dot;
    }
    return out;
  }

  /** The best {@link #DEPTH} chunks; a hit's doc is the chunk's index in the vector list. */
  private static List<Hit> top(double[] scores, List<String> keys, List<Integer> docs) {
    Integer[] order = docs.toArray(Integer[]::new);
    java.util.Arrays.sort(order, (a, b) -> Double.compare(scores[b], scores[a]));
    var hits = new ArrayList<Hit>(DEPTH);
    for (int i = 0; i < Math.min(DEPTH, order.length); i++) {
      hits.add(new Hit(keys.get(order[i]), order[i], scores[order[i]]));
    }
    return hits;
  }

  private static void normalize(float[] v) {
    double norm = 0;
    for (float f : v) {
      norm += f * f;
    }
    norm = Math.sqrt(norm);
    for (int j = 0; j < v.length; j++) {
      v[j] /= (float) norm;
    }
  }

  private static Map<String, Double> recordMax(double[] cos, List<String> keys) {
    var out = new HashMap<String, Double>();
    for (int i = 0; i < cos.length; i++) {
      out.merge(keys.get(i), cos[i], Math::max);
    }
    return out;
  }

  private static Map<String, Double> recordMax(List<Hit> hits) {
    var out = new HashMap<String, Double>();
    hits.forEach(h -> out.merge(h.key(), h.score(), Math::max));
    return out;
  }

  /**
   * Score fusion where every candidate (the union of both lanes' records) is scored in both lanes:
   * its exact cosine, its BM25 score or 0. Each lane is standardized by the mean and deviation of
   * its own records: as z-scores, or scaled so mean ± 3σ maps to [0, 1] (DBSF).
   */
  private static double complete(
      String queryId,
      Map<String, Double> bm25,
      Map<String, Double> cos,
      List<Hit> lexical,
      List<Hit> dense,
      double wBm25,
      boolean dbsf,
      Map<String, Integer> rel) {
    Map<String, Double> lexTop = firstPerRecord(lexical);
    Map<String, Double> denseTop = firstPerRecord(dense);
    double[] b = meanSd(lexTop.values());
    double[] v = meanSd(denseTop.values());
    var candidates = new LinkedHashSet<>(lexTop.keySet());
    candidates.addAll(denseTop.keySet());
    var fused = new ArrayList<Map.Entry<String, Double>>();
    for (String key : candidates) {
      double bs = bm25.getOrDefault(key, 0.0);
      double vs = cos.get(key);
      double score =
          dbsf
              ? wBm25 * (bs - b[0] + 3 * b[1]) / (6 * b[1]) + (vs - v[0] + 3 * v[1]) / (6 * v[1])
              : wBm25 * (bs - b[0]) / b[1] + (vs - v[0]) / v[1];
      fused.add(Map.entry(key, score));
    }
    fused.sort(Map.Entry.<String, Double>comparingByValue().reversed());
    return ndcg(queryId, fused.stream().map(Map.Entry::getKey).toList(), rel);
  }

  private static Map<String, Double> firstPerRecord(List<Hit> hits) {
    var out = new LinkedHashMap<String, Double>();
    hits.forEach(h -> out.putIfAbsent(h.key(), h.score()));
    return out;
  }

  private static double[] meanSd(Collection<Double> xs) {
    double mean = xs.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    double var = xs.stream().mapToDouble(x -> (x - mean) * (x - mean)).average().orElse(0);
    return new double[] {mean, var == 0 ? 1 : Math.sqrt(var)};
  }

  private static double fused(
      String queryId,
      List<Hit> lexical,
      List<Hit> dense,
      FusionMode mode,
      Map<String, Integer> rel) {
    var lanes = new EnumMap<Lane, List<Hit>>(Lane.class);
    lanes.put(Lane.BM25, lexical);
    lanes.put(Lane.VECTOR, dense);
    var keys = new ArrayList<String>();
    Fusion.fuse(lanes, mode, SearchOptions.DEFAULT_RRF_K, Map.of()).forEach(r -> keys.add(r.key()));
    return ndcg(queryId, keys, rel);
  }

  private static List<String> hitsDocs(List<Hit> hits) {
    var keys = new LinkedHashSet<String>();
    hits.forEach(h -> keys.add(h.key()));
    return new ArrayList<>(keys);
  }

  /** nDCG@10 over record keys ({@code doc:<id>}), the query's own id dropped. */
  private static double ndcg(String queryId, List<String> keys, Map<String, Integer> rel) {
    var ids = new ArrayList<String>();
    for (String key : keys) {
      String id = key.substring("doc:".length());
      if (!id.equals(queryId)) {
        ids.add(id);
      }
    }
    return SciFactBench.ndcg(ids, rel, 10);
  }

  /** Per-query nDCG@10 of every variant: the means, and a two-fold check of picking one. */
  private static final class Scores {
    private static final String DEFAULT = "hybrid rrf k60";
    private final Map<String, Map<String, Double>> byVariant = new TreeMap<>();
    private String query;

    void query(String id) {
      query = id;
    }

    void add(String variant, double ndcg) {
      byVariant.computeIfAbsent(variant, k -> new LinkedHashMap<>()).put(query, ndcg);
    }

    private double mean(String variant, Predicate<String> queries) {
      return byVariant.get(variant).entrySet().stream()
          .filter(e -> queries.test(e.getKey()))
          .mapToDouble(Map.Entry::getValue)
          .average()
          .orElse(0);
    }

    /**
     * The means; then, for the hybrid variants, the best one picked on the queries with even ids
     * scored on the odd ones and vice versa: what picking a variant on the test set is worth once
     * the pick is scored on queries it was not picked on.
     */
    void print() {
      byVariant
          .keySet()
          .forEach(v -> System.out.printf("%-48s nDCG@10 %.4f%n", v, mean(v, q -> true)));
      Predicate<String> even = q -> Integer.parseInt(q) % 2 == 0;
      for (var fold : List.of(Map.entry("even", even), Map.entry("odd", even.negate()))) {
        Predicate<String> pick = fold.getValue();
        Predicate<String> held = pick.negate();
        String best =
            byVariant.keySet().stream()
                .filter(v -> v.contains("hybrid"))
                .max(Comparator.comparingDouble(v -> mean(v, pick)))
                .orElseThrow();
        System.out.printf(
            "picked on %s ids: %s (%.4f there); on the other ids %.4f, the default %.4f%n",
            fold.getKey(), best, mean(best, pick), mean(best, held), mean(DEFAULT, held));
      }
    }
  }
}
