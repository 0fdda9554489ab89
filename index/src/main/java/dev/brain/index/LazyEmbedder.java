package dev.brain.index;

import dev.brain.chunking.Chunker;
import dev.brain.models.Embedder;

/**
 * The embedder of an index's model and the chunker that counts tokens with it, loaded on first
 * need: loading takes about a second and ONNX Runtime, which {@code stats} and {@code get} never
 * need. An embedder the caller handed over is used as is and never closed here.
 */
final class LazyEmbedder implements AutoCloseable {
  private final IndexConfig config;
  private final boolean owned;
  private Embedder embedder;
  private Chunker chunker;

  /**
   * @param given an embedder for {@code config.model()} the caller owns, or {@code null} to load
   *     one on first need
   */
  LazyEmbedder(IndexConfig config, Embedder given) {
    this.config = config;
    this.embedder = given;
    this.owned = given == null;
  }

  /** The embedder, loaded on first call. */
  synchronized Embedder get() {
    if (embedder == null) {
      embedder = Embedder.open(config.model());
    }
    return embedder;
  }

  /** Whether the embedder is there (tests check that reads never load it). */
  synchronized boolean loaded() {
    return embedder != null;
  }

  /** The chunker of the configured budgets, counting tokens with the embedder's tokenizer. */
  synchronized Chunker chunker() {
    if (chunker == null) {
      Embedder tokens = get();
      chunker =
          new Chunker(tokens::countTokens, config.chunkMaxTokens(), config.chunkOverlapTokens());
    }
    return chunker;
  }

  /** Closes a loaded embedder this owns. */
  @Override
  public synchronized void close() {
    if (owned && embedder != null) {
      embedder.close();
      embedder = null;
    }
  }
}
