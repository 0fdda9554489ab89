package dev.brain.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RecallTest {

  @Test
  void recallCountsTheExactIdsFoundInAnyOrder() {
    assertThat(Recall.recall(new int[] {4, 3, 2, 1}, new int[] {1, 2, 3, 4})).isEqualTo(1.0);
    assertThat(Recall.recall(new int[] {1, 9, 8, 7}, new int[] {1, 2, 3, 4})).isEqualTo(0.25);
    assertThat(Recall.recall(new int[] {}, new int[] {1, 2})).isZero();
  }

  @Test
  void anEmptyExactSetHasFullRecall() {
    assertThat(Recall.recall(new int[] {1}, new int[] {})).isEqualTo(1.0);
  }

  @Test
  void exactTopKRanksByDotProductBestFirst() {
    List<float[]> vectors =
        List.of(
            new float[] {1, 0}, // 0.6
            new float[] {0, 1}, // 0.8
            new float[] {-1, 0}, // -0.6
            new float[] {0.6f, 0.8f}); // 1.0
    float[] query = {0.6f, 0.8f};

    assertThat(Recall.exactTopK(vectors, query, 3)).containsExactly(3, 1, 0);
  }

  @Test
  void exactTopKBreaksTiesTowardsTheLowerPosition() {
    List<float[]> vectors = List.of(new float[] {1, 0}, new float[] {1, 0}, new float[] {1, 0});

    assertThat(Recall.exactTopK(vectors, new float[] {1, 0}, 2)).containsExactly(0, 1);
  }

  @Test
  void exactTopKReturnsEverythingWhenKExceedsTheVectors() {
    List<float[]> vectors = List.of(new float[] {0, 1}, new float[] {1, 0});

    assertThat(Recall.exactTopK(vectors, new float[] {1, 0}, 10)).containsExactly(1, 0);
  }
}
