package dev.brain.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * How the scaled-up corpus copies a real chunk: the text loses a few words and has a few
 * neighbouring words swapped (so BM25 sees near-duplicates, not exact ones, and the chunk never
 * grows past the chunker's budget); the vector is the source chunk's real embedding plus gaussian
 * noise, renormalized. This is a synthetic scale-up of real embeddings, not 100k real documents:
 * the copies cluster around the real chunks.
 *
 * @param dropRate probability that a word is dropped
 * @param swaps number of random neighbouring-word swaps
 * @param noiseSigma standard deviation of the noise added to each vector component; at 384
 *     dimensions 0.015 gives an expected cosine of about 0.96 to the source vector
 */
record Perturbation(double dropRate, int swaps, double noiseSigma) {

  /** The settings the cached 100k corpus is built with. */
  static final Perturbation DEFAULT = new Perturbation(0.08, 2, 0.015);

  /** A perturbed copy of {@code text}: words joined by single spaces, at least one kept. */
  String text(String text, Random random) {
    String[] words = text.strip().split("\\s+");
    var kept = new ArrayList<String>(words.length);
    for (String w : words) {
      if (random.nextDouble() >= dropRate) {
        kept.add(w);
      }
    }
    if (kept.isEmpty()) {
      kept.add(words[random.nextInt(words.length)]);
    }
    swapNeighbours(kept, random);
    return String.join(" ", kept);
  }

  private void swapNeighbours(List<String> words, Random random) {
    if (words.size() < 2) {
      return;
    }
    for (int i = 0; i < swaps; i++) {
      int at = random.nextInt(words.size() - 1);
      Collections.swap(words, at, at + 1);
    }
  }

  /** {@code vector} plus gaussian noise, scaled back to unit length. */
  float[] vector(float[] vector, Random random) {
    float[] out = new float[vector.length];
    for (int i = 0; i < vector.length; i++) {
      out[i] = (float) (vector[i] + random.nextGaussian() * noiseSigma);
    }
    return normalize(out);
  }

  static float[] normalize(float[] v) {
    double norm = 0;
    for (float x : v) {
      norm += x * x;
    }
    float scale = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) {
      v[i] *= scale;
    }
    return v;
  }
}
