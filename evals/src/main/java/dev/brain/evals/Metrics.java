package dev.brain.evals;

import java.util.List;
import java.util.Map;

/**
 * Ranking metrics with the conventions of BEIR and trec_eval: graded gains for nDCG (gain = grade,
 * log2 discount), a document is relevant for recall and MRR when its grade is at least 1, and the
 * ideal ranking is built from every judged document of the query.
 */
final class Metrics {
  private Metrics() {}

  /**
   * nDCG@k of a ranking.
   *
   * @param ranking document ids, best first
   * @param qrels grade per judged document id (grades below 1 count as non-relevant gain 0)
   */
  static double ndcg(List<String> ranking, Map<String, Integer> qrels, int k) {
    double dcg = 0;
    for (int i = 0; i < Math.min(k, ranking.size()); i++) {
      int grade = Math.max(0, qrels.getOrDefault(ranking.get(i), 0));
      dcg += grade / log2(i + 2);
    }
    var ideal =
        qrels.values().stream().filter(g -> g > 0).sorted((a, b) -> b - a).limit(k).toList();
    double idcg = 0;
    for (int i = 0; i < ideal.size(); i++) {
      idcg += ideal.get(i) / log2(i + 2);
    }
    return idcg == 0 ? 0 : dcg / idcg;
  }

  /** Recall@k: the share of relevant documents (grade >= 1) found in the first k. */
  static double recall(List<String> ranking, Map<String, Integer> qrels, int k) {
    long relevant = qrels.values().stream().filter(g -> g >= 1).count();
    if (relevant == 0) {
      return 0;
    }
    long found = ranking.stream().limit(k).filter(id -> qrels.getOrDefault(id, 0) >= 1).count();
    return (double) found / relevant;
  }

  /** MRR@k: the reciprocal rank of the first relevant document in the first k, else 0. */
  static double mrr(List<String> ranking, Map<String, Integer> qrels, int k) {
    for (int i = 0; i < Math.min(k, ranking.size()); i++) {
      if (qrels.getOrDefault(ranking.get(i), 0) >= 1) {
        return 1.0 / (i + 1);
      }
    }
    return 0;
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }
}
