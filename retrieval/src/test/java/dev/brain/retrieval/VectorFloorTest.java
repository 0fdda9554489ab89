package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.retrieval.Fusion.FusedRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The relevance floor on fused records built by hand: what is dropped, and what is counted. */
class VectorFloorTest {

  private static FusedRecord record(String key, Double bm25, Double cosine) {
    var lanes = new ArrayList<LaneScore>();
    if (bm25 != null) {
      lanes.add(new LaneScore(Lane.BM25, 1, bm25, 0.01));
    }
    if (cosine != null) {
      lanes.add(new LaneScore(Lane.VECTOR, 1, cosine, 0.01));
    }
    return new FusedRecord(key, 0.01 * lanes.size(), lanes, List.of(), Map.of());
  }

  private static final List<FusedRecord> FUSED =
      List.of(
          record("hit", 3.0, 0.80), // best cosine
          record("weak", null, 0.60), // 0.75 of the best: dropped, within the limit
          record("near", null, 0.72), // 0.90 of the best: kept
          record("words", 1.0, 0.30), // a lexical hit far below the floor: never dropped
          record("tail", null, 0.50)); // dropped beyond the limit: not counted

  @Test
  void dropsVectorOnlyRecordsBelowTheFloorAndCountsThoseWithinTheLimit() {
    VectorFloor.Applied applied = VectorFloor.apply(FUSED, 0.87, 3);

    assertThat(applied.kept()).extracting(FusedRecord::key).containsExactly("hit", "near", "words");
    assertThat(applied.leftOut()).isEqualTo(1);
  }

  @Test
  void aFloorOfZeroKeepsEveryRecord() {
    VectorFloor.Applied applied = VectorFloor.apply(FUSED, 0, 3);

    assertThat(applied.kept()).isEqualTo(FUSED);
    assertThat(applied.leftOut()).isZero();
  }

  @Test
  void withoutAVectorScoreNothingIsFloored() {
    var lexical = List.of(record("a", 2.0, null), record("b", 1.0, null));

    assertThat(VectorFloor.apply(lexical, 0.87, 10).kept()).isEqualTo(lexical);
  }
}
