package dev.brain.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Counts the padded tokens the embedder runs for a list of passages, mirroring {@code
 * Embedder.embedPassages}: sort by length (longest first), then cut batches of at most {@code
 * batchSize} passages and at most {@code maxBatchTokens} padded tokens; each batch is padded to its
 * longest passage. Explains the bucketing benchmark: padding is compute spent on nothing.
 */
final class Padding {
  private Padding() {}

  /** Padded tokens when all passages go to one call (the embedder buckets them by length). */
  static long bucketed(List<Integer> lengths, int batchSize, int maxBatchTokens) {
    var sorted = new ArrayList<>(lengths);
    sorted.sort(Comparator.reverseOrder());
    long padded = 0;
    int i = 0;
    while (i < sorted.size()) {
      int longest = sorted.get(i);
      int rows = Math.max(1, Math.min(batchSize, maxBatchTokens / Math.max(1, longest)));
      rows = Math.min(rows, sorted.size() - i);
      padded += (long) rows * longest;
      i += rows;
    }
    return padded;
  }

  /**
   * Padded tokens when the passages go to the embedder in input-order windows of {@code batchSize},
   * one call each: every window is padded to its own longest passage.
   */
  static long unbucketed(List<Integer> lengths, int batchSize, int maxBatchTokens) {
    long padded = 0;
    for (int i = 0; i < lengths.size(); i += batchSize) {
      padded +=
          bucketed(
              lengths.subList(i, Math.min(lengths.size(), i + batchSize)),
              batchSize,
              maxBatchTokens);
    }
    return padded;
  }
}
