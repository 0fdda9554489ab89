package dev.brain.retrieval;

import dev.brain.models.Embedder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The query vectors embedded last, by query text: a query asked again (a research run's searches,
 * the same search from the web page and the command line, a page reloaded) is not embedded again.
 * Embedding a query is most of a search's CPU on a small index. Thread-safe; a different embedder
 * (another model) starts afresh.
 */
final class QueryVectors {

  /** Queries kept: a few hundred kilobytes of 384-dimensional vectors. */
  static final int CAPACITY = 256;

  private final Map<String, float[]> vectors =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
          return size() > CAPACITY;
        }
      };

  private Embedder embedder;

  /**
   * The vector of {@code query} by {@code embedder}, embedded now or earlier; a copy the caller may
   * keep.
   */
  float[] embed(Embedder embedder, String query) {
    float[] kept;
    synchronized (this) {
      if (this.embedder != embedder) {
        vectors.clear();
        this.embedder = embedder;
      }
      kept = vectors.get(query);
    }
    if (kept == null) {
      // Embedded outside the lock: two threads asking the same new query both embed it once.
      kept = embedder.embedQuery(query);
      synchronized (this) {
        if (this.embedder == embedder) {
          vectors.put(query, kept);
        }
      }
    }
    return kept.clone();
  }
}
