package dev.brain.bench;

import java.util.List;
import java.util.PriorityQueue;
import org.apache.lucene.util.VectorUtil;

/** Exact nearest neighbours by brute force, and recall of an approximate result against them. */
final class Recall {
  private Recall() {}

  /**
   * The fraction of {@code exact} found in {@code approximate}: recall@k when {@code exact} holds
   * the true top k. Order does not matter; an empty exact set has recall 1.
   */
  static double recall(int[] approximate, int[] exact) {
    if (exact.length == 0) {
      return 1;
    }
    int found = 0;
    for (int e : exact) {
      for (int a : approximate) {
        if (a == e) {
          found++;
          break;
        }
      }
    }
    return (double) found / exact.length;
  }

  /**
   * Positions in {@code vectors} of the {@code k} largest dot products with {@code query}, best
   * first; ties go to the lower position.
   */
  static int[] exactTopK(List<float[]> vectors, float[] query, int k) {
    // Min-heap of the best k so far: the root is the weakest kept candidate.
    var heap =
        new PriorityQueue<Scored>(
            k + 1, (a, b) -> a.score != b.score ? Float.compare(a.score, b.score) : b.pos - a.pos);
    for (int i = 0; i < vectors.size(); i++) {
      heap.add(new Scored(i, dot(vectors.get(i), query)));
      if (heap.size() > k) {
        heap.poll();
      }
    }
    int[] out = new int[heap.size()];
    for (int i = out.length - 1; i >= 0; i--) {
      out[i] = heap.poll().pos;
    }
    return out;
  }

  /** Lucene's dot product (SIMD with the vector module). */
  static float dot(float[] a, float[] b) {
    return VectorUtil.dotProduct(a, b);
  }

  private record Scored(int pos, float score) {}
}
