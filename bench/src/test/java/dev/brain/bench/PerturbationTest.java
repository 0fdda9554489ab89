package dev.brain.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PerturbationTest {

  private static final String SOURCE =
      "Alterations of the architecture of cerebral white matter in the developing human brain"
          + " can affect cortical development and result in functional disabilities.\n\nA line"
          + " scan diffusion-weighted magnetic resonance imaging sequence was applied.";

  private final Perturbation p = Perturbation.DEFAULT;

  @Test
  void perturbedTextUsesOnlySourceWordsAndNeverGrows() {
    List<String> source = List.of(SOURCE.split("\\s+"));
    for (int seed = 0; seed < 50; seed++) {
      String copy = p.text(SOURCE, new Random(seed));
      List<String> words = List.of(copy.split(" "));

      assertThat(source).containsAll(words);
      assertThat(words.size()).isLessThanOrEqualTo(source.size());
      assertThat(copy).doesNotContain("\n").doesNotStartWith(" ").doesNotEndWith(" ");
    }
  }

  @Test
  void perturbedTextsDifferFromTheSourceAndFromEachOther() {
    String a = p.text(SOURCE, new Random(1));
    String b = p.text(SOURCE, new Random(2));

    assertThat(a).isNotEqualTo(String.join(" ", SOURCE.split("\\s+")));
    assertThat(a).isNotEqualTo(b);
  }

  @Test
  void theSameSeedGivesTheSameCopy() {
    assertThat(p.text(SOURCE, new Random(7))).isEqualTo(p.text(SOURCE, new Random(7)));
    float[] v = unit(384, 3);
    assertThat(p.vector(v, new Random(7))).containsExactly(p.vector(v, new Random(7)));
  }

  @Test
  void aOneWordTextKeepsItsWord() {
    var dropAll = new Perturbation(1.0, 2, 0);

    assertThat(dropAll.text("  alone  ", new Random(0))).isEqualTo("alone");
  }

  @Test
  void perturbedVectorIsUnitLengthAndNearTheSource() {
    float[] source = unit(384, 11);
    double cosSum = 0;
    for (int seed = 0; seed < 20; seed++) {
      float[] copy = p.vector(source, new Random(seed));
      assertThat(norm(copy)).isCloseTo(1.0, within(1e-5));
      cosSum += Recall.dot(source, copy);
    }
    // sigma 0.015 at 384 dimensions: expected cosine 1 / sqrt(1 + 384 * 0.015^2) = 0.959
    assertThat(cosSum / 20).isCloseTo(0.959, within(0.01));
  }

  private static float[] unit(int dim, long seed) {
    var random = new Random(seed);
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) {
      v[i] = (float) random.nextGaussian();
    }
    return Perturbation.normalize(v);
  }

  private static double norm(float[] v) {
    return Math.sqrt(Arrays.stream(toDoubles(v)).map(x -> x * x).sum());
  }

  private static double[] toDoubles(float[] v) {
    double[] d = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      d[i] = v[i];
    }
    return d;
  }
}
