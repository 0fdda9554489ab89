package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.brain.retrieval.Fusion.FusedRecord;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FusionTest {

  private static final double EPS = 1e-12;

  /** bm25: a (chunks 1 and 3), b (chunk 2), d; vector: b, c, a. */
  private static Map<Lane, List<Hit>> lanes() {
    var lanes = new EnumMap<Lane, List<Hit>>(Lane.class);
    lanes.put(
        Lane.BM25,
        List.of(
            new Hit("a", 1, 10.0),
            new Hit("b", 2, 8.0),
            new Hit("a", 3, 7.0),
            new Hit("d", 4, 6.0)));
    lanes.put(
        Lane.VECTOR, List.of(new Hit("b", 12, 0.9), new Hit("c", 13, 0.8), new Hit("a", 3, 0.5)));
    return lanes;
  }

  private static Map<Lane, Double> weights(double bm25, double vector) {
    return Map.of(Lane.BM25, bm25, Lane.VECTOR, vector);
  }

  @Test
  void equalScoresShareTheBestRankOfTheirGroup() {
    var lanes = new EnumMap<Lane, List<Hit>>(Lane.class);
    lanes.put(
        Lane.EXACT_TAG,
        List.of(
            new Hit("x", Hit.NO_CHUNK, 2.0),
            new Hit("y", Hit.NO_CHUNK, 1.0),
            new Hit("z", Hit.NO_CHUNK, 1.0),
            new Hit("w", Hit.NO_CHUNK, 0.5)));
    var ranks = new java.util.HashMap<String, Integer>();
    for (FusedRecord r : Fusion.fuse(lanes, FusionMode.RRF, 60, Map.of(Lane.EXACT_TAG, 1.0))) {
      ranks.put(r.key(), r.rank(Lane.EXACT_TAG));
    }
    assertThat(ranks).containsEntry("x", 1).containsEntry("y", 2).containsEntry("z", 2);
    assertThat(ranks).containsEntry("w", 4);
  }

  @Test
  void aTagMatchAloneNeverLiftsARecordAboveTheOneBothLanesRankFirst() {
    var lanes = new EnumMap<Lane, List<Hit>>(Lane.class);
    lanes.put(Lane.BM25, List.of(new Hit("best", 1, 9.0), new Hit("tagged", 2, 8.0)));
    lanes.put(Lane.VECTOR, List.of(new Hit("best", 1, 0.9), new Hit("tagged", 2, 0.8)));
    lanes.put(Lane.EXACT_TAG, List.of(new Hit("tagged", Hit.NO_CHUNK, 1.0)));
    List<FusedRecord> fused =
        Fusion.fuse(
            lanes,
            FusionMode.RRF,
            60,
            Map.of(Lane.BM25, 1.0, Lane.VECTOR, 1.0, Lane.EXACT_TAG, 1.0));
    // By score alone the tagged record leads (2/62 + 1/61 > 2/61).
    assertThat(fused.get(1).score()).isGreaterThan(fused.get(0).score());
    assertThat(fused).extracting(FusedRecord::key).containsExactly("best", "tagged");
  }

  @Test
  void rrfAddsWeightOverKPlusRecordRankPerLane() {
    List<FusedRecord> fused = Fusion.fuse(lanes(), FusionMode.RRF, 60, weights(1, 1));

    // Record ranks: bm25 a=1, b=2, d=3 (a's second chunk does not take a rank); vector b=1, c=2,
    // a=3.
    assertThat(fused).extracting(FusedRecord::key).containsExactly("b", "a", "c", "d");
    assertThat(fused.get(0).score()).isCloseTo(1.0 / 62 + 1.0 / 61, within(EPS));
    assertThat(fused.get(1).score()).isCloseTo(1.0 / 61 + 1.0 / 63, within(EPS));
    assertThat(fused.get(2).score()).isCloseTo(1.0 / 62, within(EPS));
    assertThat(fused.get(3).score()).isCloseTo(1.0 / 63, within(EPS));
  }

  @Test
  void rrfKeepsEachLanesRankRawScoreAndContribution() {
    FusedRecord b = Fusion.fuse(lanes(), FusionMode.RRF, 60, weights(1, 1)).get(0);

    assertThat(b.lanes())
        .containsExactly(
            new LaneScore(Lane.BM25, 2, 8.0, 1.0 / 62),
            new LaneScore(Lane.VECTOR, 1, 0.9, 1.0 / 61));
  }

  @Test
  void rrfWeightsScaleContributions() {
    List<FusedRecord> fused = Fusion.fuse(lanes(), FusionMode.RRF, 60, weights(1, 3));

    // b = 1/62 + 3/61 = 0.0653, a = 1/61 + 3/63 = 0.0640, c = 3/62 = 0.0484, d = 1/63.
    assertThat(fused).extracting(FusedRecord::key).containsExactly("b", "a", "c", "d");
    assertThat(fused.get(0).score()).isCloseTo(1.0 / 62 + 3.0 / 61, within(EPS));
    assertThat(fused.get(2).score()).isCloseTo(3.0 / 62, within(EPS));
    assertThat(fused.get(1).score()).isCloseTo(1.0 / 61 + 3.0 / 63, within(EPS));
  }

  @Test
  void rrfKChangesTheDenominator() {
    FusedRecord first = Fusion.fuse(lanes(), FusionMode.RRF, 1, weights(1, 1)).get(0);

    // k=1: b = 1/3 + 1/2 = 0.833, a = 1/2 + 1/4 = 0.75
    assertThat(first.key()).isEqualTo("b");
    assertThat(first.score()).isCloseTo(1.0 / 3 + 1.0 / 2, within(EPS));
  }

  @Test
  void normalizedScalesEachLaneToUnitRangeOverItsRecords() {
    List<FusedRecord> fused = Fusion.fuse(lanes(), FusionMode.NORMALIZED, 60, weights(1, 1));

    // bm25 records a=10, b=8, d=6 -> 1, 0.5, 0; vector b=0.9, c=0.8, a=0.5 -> 1, 0.75, 0.
    assertThat(fused).extracting(FusedRecord::key).containsExactly("b", "a", "c", "d");
    assertThat(fused.get(0).score()).isCloseTo(1.5, within(EPS));
    assertThat(fused.get(1).score()).isCloseTo(1.0, within(EPS));
    assertThat(fused.get(2).score()).isCloseTo(0.75, within(EPS));
    assertThat(fused.get(3).score()).isCloseTo(0.0, within(EPS));
    LaneScore c = fused.get(2).lanes().get(0);
    assertThat(c.lane()).isEqualTo(Lane.VECTOR);
    assertThat(c.rank()).isEqualTo(2);
    assertThat(c.rawScore()).isEqualTo(0.8);
    assertThat(c.contribution()).isCloseTo(0.75, within(EPS));
  }

  @Test
  void normalizedWeightsMultiplyNormalizedScores() {
    List<FusedRecord> fused = Fusion.fuse(lanes(), FusionMode.NORMALIZED, 60, weights(2, 1));

    // a = 2*1 + 0 = 2, b = 2*0.5 + 1 = 2, c = 0.75, d = 0; a and b tie on score and best rank
    // (both rank 1 somewhere) and are ordered by key.
    assertThat(fused).extracting(FusedRecord::key).containsExactly("a", "b", "c", "d");
    assertThat(fused.get(0).score()).isCloseTo(2.0, within(EPS));
    assertThat(fused.get(1).score()).isCloseTo(2.0, within(EPS));
  }

  @Test
  void aLaneWhoseScoresAreAllEqualNormalizesToOne() {
    var lanes = new EnumMap<Lane, List<Hit>>(Lane.class);
    lanes.put(
        Lane.EXACT_TAG, List.of(new Hit("t", Hit.NO_CHUNK, 2), new Hit("u", Hit.NO_CHUNK, 2)));

    List<FusedRecord> fused =
        Fusion.fuse(lanes, FusionMode.NORMALIZED, 60, Map.of(Lane.EXACT_TAG, 1.0));

    assertThat(fused).extracting(FusedRecord::score).containsExactly(1.0, 1.0);
  }

  @Test
  void chunksOfARecordAreOrderedByTheirOwnFusedScore() {
    FusedRecord a = Fusion.fuse(lanes(), FusionMode.RRF, 60, weights(1, 1)).get(1);

    // chunk 3: bm25 chunk rank 3 (1/63) + vector chunk rank 3 (1/63); chunk 1: bm25 rank 1 (1/61)
    assertThat(a.key()).isEqualTo("a");
    assertThat(a.chunks()).extracting(Fusion.FusedChunk::doc).containsExactly(3, 1);
    assertThat(a.chunks().get(0).score()).isCloseTo(2.0 / 63, within(EPS));
    assertThat(a.chunks().get(1).score()).isCloseTo(1.0 / 61, within(EPS));
  }

  @Test
  void recordLevelHitsAddNoChunks() {
    var lanes = new EnumMap<Lane, List<Hit>>(Lane.class);
    lanes.put(Lane.EXACT_TAG, List.of(new Hit("t", Hit.NO_CHUNK, 1)));

    FusedRecord t = Fusion.fuse(lanes, FusionMode.RRF, 60, Map.of()).get(0);

    assertThat(t.chunks()).isEmpty();
    assertThat(t.score()).isCloseTo(1.0 / 61, within(EPS));
  }
}
