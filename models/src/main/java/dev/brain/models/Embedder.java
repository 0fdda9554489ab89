package dev.brain.models;

import java.util.List;

/**
 * Turns text into L2-normalized vectors with a local ONNX model. Passages (documents, chunks) and
 * queries are embedded differently: only queries get the model's query instruction. Implementations
 * are thread-safe; close releases the native session.
 */
public interface Embedder extends AutoCloseable {

  /**
   * Loads a bundled model from the classpath. Takes about a second.
   *
   * @throws IllegalStateException if the model's resources are not on the classpath
   */
  static Embedder open(EmbeddingModel model) {
    throw new UnsupportedOperationException("not built yet");
  }

  /** The model this embedder runs; its id and dimension identify the vectors it makes. */
  EmbeddingModel model();

  /**
   * Embeds passages in input order, batching and bucketing by length internally.
   *
   * @return one normalized vector of {@link EmbeddingModel#dimension()} floats per input
   */
  List<float[]> embedPassages(List<String> passages);

  /** Embeds one query, with the model's query instruction prepended. */
  float[] embedQuery(String query);

  /** Number of model tokens in the text, special tokens excluded, before truncation. */
  int countTokens(String text);

  @Override
  void close();
}
