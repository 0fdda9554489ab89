package dev.brain.models;

import java.util.List;

/**
 * Turns text into L2-normalized vectors with a local ONNX model. Passages (documents, chunks) and
 * queries are embedded differently: only queries get the model's query instruction. Implementations
 * are thread-safe; close releases the native session.
 */
public interface Embedder extends AutoCloseable {

  /**
   * Loads a bundled model from the classpath with {@link EmbedderOptions#defaults()}. Takes about a
   * second.
   *
   * @throws IllegalStateException if the model's resources are not on the classpath (the message
   *     names the resource and the Maven artifact that provides it) or cannot be loaded
   */
  static Embedder open(EmbeddingModel model) {
    return open(model, EmbedderOptions.defaults());
  }

  /**
   * Loads a bundled model from the classpath with the given batch and thread settings.
   *
   * @throws IllegalStateException if the model's resources are not on the classpath or cannot be
   *     loaded
   */
  static Embedder open(EmbeddingModel model, EmbedderOptions options) {
    Embedder preloaded = EmbedderPreload.take(model, options);
    return preloaded != null ? preloaded : OnnxEmbedder.load(model, options);
  }

  /**
   * Starts loading {@code model} with the default options on a background thread, once per process;
   * the first {@link #open} of the same model takes it over (waiting for it if need be). For a
   * one-shot process such as a CLI search: ONNX Runtime, the tokenizer and the model load while the
   * index opens and the lexical lanes run. The embedder is the same as one opened directly; one
   * that is never opened is left to the process's exit.
   */
  static void preload(EmbeddingModel model) {
    EmbedderPreload.start(model, EmbedderOptions.defaults());
  }

  /**
   * Waits (at most a minute) for a {@link #preload} still under way that no {@link #open} took
   * over. Call it before {@code System.exit}: a process that exits while ONNX Runtime creates its
   * session on the preload's thread crashes in the runtime's exit handlers (a command line that
   * fails to parse right after a search started the preload did, one run in four).
   */
  static void awaitPreload() {
    EmbedderPreload.await(java.time.Duration.ofMinutes(1));
  }

  /** The model this embedder runs; its id and dimension identify the vectors it makes. */
  EmbeddingModel model();

  /**
   * Embeds passages in input order, batching and bucketing by length internally.
   *
   * @return one normalized vector of {@link EmbeddingModel#dimension()} floats per input
   */
  List<float[]> embedPassages(List<String> passages);

  /**
   * Embeds one query, with the model's query instruction prepended.
   *
   * @return one normalized vector of {@link EmbeddingModel#dimension()} floats
   */
  float[] embedQuery(String query);

  /**
   * Number of model tokens in the text, special tokens excluded, before truncation. Cheap (the
   * tokenizer only, no model call), so chunkers may call it per sentence.
   */
  int countTokens(String text);

  /** Releases the native session and tokenizers; later calls throw IllegalStateException. */
  @Override
  void close();
}
