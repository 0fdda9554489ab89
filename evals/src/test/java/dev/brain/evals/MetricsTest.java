package dev.brain.evals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricsTest {

  @Test
  void ndcgOfAPerfectRankingIsOne() {
    var qrels = Map.of("a", 2, "b", 1);
    assertThat(Metrics.ndcg(List.of("a", "b", "c"), qrels, 10)).isCloseTo(1.0, within(1e-12));
  }

  @Test
  void ndcgMatchesHandComputedGradedValue() {
    // Ranking c, a, b with grades a=2, b=1, c=0.
    // DCG = 0/log2(2) + 2/log2(3) + 1/log2(4) = 1.261860 + 0.5 = 1.761860
    // IDCG = 2/log2(2) + 1/log2(3) = 2 + 0.630930 = 2.630930
    var qrels = Map.of("a", 2, "b", 1, "c", 0);
    assertThat(Metrics.ndcg(List.of("c", "a", "b"), qrels, 10))
        .isCloseTo(1.761860 / 2.630930, within(1e-6));
  }

  @Test
  void ndcgCutsTheRankingAtK() {
    var qrels = Map.of("a", 1);
    assertThat(Metrics.ndcg(List.of("x", "y", "a"), qrels, 2)).isZero();
    // At k=3 the hit sits at rank 3: 1/log2(4) = 0.5 over an ideal of 1.
    assertThat(Metrics.ndcg(List.of("x", "y", "a"), qrels, 3)).isCloseTo(0.5, within(1e-12));
  }

  @Test
  void idealRankingCountsRelevantDocumentsTheRunNeverRetrieved() {
    // Two relevant documents, only one retrieved at rank 1: DCG 1, IDCG 1 + 1/log2(3).
    var qrels = Map.of("a", 1, "b", 1);
    assertThat(Metrics.ndcg(List.of("a"), qrels, 10))
        .isCloseTo(1 / (1 + 1 / (Math.log(3) / Math.log(2))), within(1e-12));
  }

  @Test
  void trecEvalStyleExample() {
    // A trec_eval-style binary example: 5 relevant documents,
    // a run of 10 with hits at ranks 1, 3, 6, 9 (binary grades).
    var qrels = Map.of("d1", 1, "d3", 1, "d6", 1, "d9", 1, "d99", 1);
    var run = List.of("d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10");
    double dcg = 1 + 1 / log2(4) + 1 / log2(7) + 1 / log2(10);
    double idcg = 1 + 1 / log2(3) + 1 / log2(4) + 1 / log2(5) + 1 / log2(6);
    assertThat(Metrics.ndcg(run, qrels, 10)).isCloseTo(dcg / idcg, within(1e-12));
    assertThat(Metrics.ndcg(run, qrels, 10)).isCloseTo(0.7316, within(1e-4));
    assertThat(Metrics.recall(run, qrels, 10)).isCloseTo(0.8, within(1e-12));
    assertThat(Metrics.recall(run, qrels, 5)).isCloseTo(0.4, within(1e-12));
    assertThat(Metrics.mrr(run, qrels, 10)).isEqualTo(1.0);
  }

  @Test
  void mrrIsReciprocalRankOfFirstRelevantWithinK() {
    var qrels = Map.of("b", 1, "c", 1);
    assertThat(Metrics.mrr(List.of("a", "b", "c"), qrels, 10)).isEqualTo(0.5);
    assertThat(Metrics.mrr(List.of("a", "x", "b"), qrels, 2)).isZero();
  }

  @Test
  void gradeZeroIsNotRelevant() {
    var qrels = Map.of("a", 0, "b", 1);
    assertThat(Metrics.recall(List.of("a"), qrels, 10)).isZero();
    assertThat(Metrics.mrr(List.of("a", "b"), qrels, 10)).isEqualTo(0.5);
  }

  @Test
  void queryWithoutRelevantDocumentsScoresZero() {
    assertThat(Metrics.ndcg(List.of("a"), Map.of(), 10)).isZero();
    assertThat(Metrics.recall(List.of("a"), Map.of(), 10)).isZero();
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }
}
