package dev.brain.index;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** The real embedder with counters, so tests can see what a sync embedded. */
final class CountingEmbedder implements Embedder {
  private final Embedder delegate;
  private final AtomicInteger calls = new AtomicInteger();
  private final List<String> passages = new ArrayList<>();

  CountingEmbedder(Embedder delegate) {
    this.delegate = delegate;
  }

  /** Calls of {@link #embedPassages} so far. */
  int calls() {
    return calls.get();
  }

  /** Every passage embedded so far, in order. */
  synchronized List<String> passages() {
    return List.copyOf(passages);
  }

  synchronized void reset() {
    calls.set(0);
    passages.clear();
  }

  @Override
  public EmbeddingModel model() {
    return delegate.model();
  }

  @Override
  public List<float[]> embedPassages(List<String> texts) {
    calls.incrementAndGet();
    synchronized (this) {
      passages.addAll(texts);
    }
    return delegate.embedPassages(texts);
  }

  @Override
  public float[] embedQuery(String query) {
    return delegate.embedQuery(query);
  }

  @Override
  public int countTokens(String text) {
    return delegate.countTokens(text);
  }

  @Override
  public void close() {
    // the shared delegate is closed by its owner
  }
}
