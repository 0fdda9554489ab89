package dev.brain.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.FloatBuffer;
import org.junit.jupiter.api.Test;

class PoolingTest {

  // Two rows of three tokens, two dimensions each; row 1's last token is padding.
  private static final FloatBuffer HIDDEN =
      FloatBuffer.wrap(new float[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 100});
  private static final long[] MASK = {1, 1, 1, 1, 1, 0};

  @Test
  void clsTakesTheFirstTokenOfTheRow() {
    assertThat(Pooling.cls(HIDDEN, 6, 2)).containsExactly(7, 8);
  }

  @Test
  void meanIgnoresPaddedTokens() {
    assertThat(Pooling.maskedMean(HIDDEN, MASK, 0, 3, 2)).containsExactly(3, 4);
    assertThat(Pooling.maskedMean(HIDDEN, MASK, 1, 3, 2)).containsExactly(8, 9);
  }

  @Test
  void normalizesToUnitLengthAndLeavesZeroVectorsAlone() {
    float[] vector = Pooling.normalize(new float[] {3, 4});
    assertThat(vector[0]).isCloseTo(0.6f, within(1e-6f));
    assertThat(vector[1]).isCloseTo(0.8f, within(1e-6f));
    assertThat(Pooling.normalize(new float[] {0, 0})).containsExactly(0, 0);
  }
}
