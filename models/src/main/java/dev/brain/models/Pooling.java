package dev.brain.models;

import java.nio.FloatBuffer;

/** Reductions from per-token hidden states to one vector, and L2 normalization. */
final class Pooling {

  private Pooling() {}

  /** The hidden state of the row's first token ([CLS]), which starts at {@code offset}. */
  static float[] cls(FloatBuffer hidden, int offset, int dimension) {
    float[] vector = new float[dimension];
    hidden.get(offset, vector);
    return vector;
  }

  /**
   * The mean of the hidden states of row {@code row} over the tokens its attention mask marks real,
   * so padding never shifts the vector.
   */
  static float[] maskedMean(FloatBuffer hidden, long[] mask, int row, int length, int dimension) {
    float[] sum = new float[dimension];
    int counted = 0;
    for (int t = 0; t < length; t++) {
      if (mask[row * length + t] == 0) {
        continue;
      }
      int offset = (row * length + t) * dimension;
      for (int d = 0; d < dimension; d++) {
        sum[d] += hidden.get(offset + d);
      }
      counted++;
    }
    for (int d = 0; d < dimension; d++) {
      sum[d] /= Math.max(1, counted);
    }
    return sum;
  }

  /** Scales the vector to unit length in place (a zero vector stays zero) and returns it. */
  static float[] normalize(float[] vector) {
    double squares = 0;
    for (float v : vector) {
      squares += (double) v * v;
    }
    if (squares == 0) {
      return vector;
    }
    float scale = (float) (1 / Math.sqrt(squares));
    for (int d = 0; d < vector.length; d++) {
      vector[d] *= scale;
    }
    return vector;
  }
}
