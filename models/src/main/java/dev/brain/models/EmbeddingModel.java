package dev.brain.models;

import java.util.List;
import java.util.Optional;

/**
 * Identity and shape of a bundled embedding model. The id and dimension are recorded in index
 * metadata: an index built with one model can only be searched with the same model.
 *
 * @param id stable model id, e.g. {@code bge-small-en-v1.5}
 * @param dimension length of every vector the model produces
 * @param maxTokens the model's input limit; longer inputs are truncated
 * @param pooling how token states become one vector
 * @param queryPrefix instruction prepended to queries only (empty when the model has none)
 * @param onnxResource classpath resource holding the ONNX graph
 * @param tokenizerResource classpath resource holding the HuggingFace tokenizer JSON
 */
public record EmbeddingModel(
    String id,
    int dimension,
    int maxTokens,
    Pooling pooling,
    String queryPrefix,
    String onnxResource,
    String tokenizerResource) {

  /** How the per-token hidden states are reduced to one vector. */
  public enum Pooling {
    /** The hidden state of the first ([CLS]) token. */
    CLS,
    /** The attention-masked mean of all token states. */
    MEAN
  }

  /** The default model: bge-small-en-v1.5, quantized, 384 dimensions, CLS pooling. */
  public static final EmbeddingModel BGE_SMALL_EN_V15 =
      new EmbeddingModel(
          "bge-small-en-v1.5",
          384,
          512,
          Pooling.CLS,
          "Represent this sentence for searching relevant passages: ",
          "/bge-small-en-v1.5-q.onnx",
          "/bge-small-en-v1.5-q-tokenizer.json");

  /**
   * The alternative model: all-MiniLM-L6-v2, quantized, 384 dimensions, mean pooling. Its resources
   * are in brain's application jar only when it is built with the {@code minilm} profile.
   */
  public static final EmbeddingModel ALL_MINILM_L6_V2 =
      new EmbeddingModel(
          "all-minilm-l6-v2",
          384,
          256,
          Pooling.MEAN,
          "",
          "/all-minilm-l6-v2-q.onnx",
          "/all-minilm-l6-v2-q-tokenizer.json");

  /** Every model brain knows (the second one's resources optional), default first. */
  public static List<EmbeddingModel> bundled() {
    return List.of(BGE_SMALL_EN_V15, ALL_MINILM_L6_V2);
  }

  /** The bundled model with this id, if any. */
  public static Optional<EmbeddingModel> byId(String id) {
    return bundled().stream().filter(m -> m.id().equalsIgnoreCase(id)).findFirst();
  }
}
