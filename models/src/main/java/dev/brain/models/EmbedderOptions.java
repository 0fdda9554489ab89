package dev.brain.models;

/**
 * How an {@link Embedder} runs its model. The defaults suit indexing on a small machine.
 *
 * @param batchSize most passages in one model call (default 32)
 * @param maxBatchTokens most padded tokens in one model call, so a batch of long passages stays
 *     small enough that attention memory stays bounded (default 8,192: 16 passages of 512 tokens)
 * @param intraOpThreads ONNX Runtime threads per model call (default: available processors)
 */
public record EmbedderOptions(int batchSize, int maxBatchTokens, int intraOpThreads) {

  /** Default passages per model call. */
  public static final int DEFAULT_BATCH_SIZE = 32;

  /** Default padded-token budget per model call. */
  public static final int DEFAULT_MAX_BATCH_TOKENS = 8_192;

  /**
   * @throws IllegalArgumentException if any value is below 1
   */
  public EmbedderOptions {
    requirePositive("batchSize", batchSize);
    requirePositive("maxBatchTokens", maxBatchTokens);
    requirePositive("intraOpThreads", intraOpThreads);
  }

  /** Batch size 32, 8,192 padded tokens per batch, one thread per available processor. */
  public static EmbedderOptions defaults() {
    return new EmbedderOptions(
        DEFAULT_BATCH_SIZE, DEFAULT_MAX_BATCH_TOKENS, Runtime.getRuntime().availableProcessors());
  }

  /** These options with another batch size. */
  public EmbedderOptions withBatchSize(int size) {
    return new EmbedderOptions(size, maxBatchTokens, intraOpThreads);
  }

  /** These options with another thread count. */
  public EmbedderOptions withIntraOpThreads(int threads) {
    return new EmbedderOptions(batchSize, maxBatchTokens, threads);
  }

  private static void requirePositive(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be at least 1, got " + value);
    }
  }
}
