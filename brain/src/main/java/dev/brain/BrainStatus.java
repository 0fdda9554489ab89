package dev.brain;

import dev.brain.index.IndexStats;
import java.nio.file.Path;
import java.time.Instant;

/**
 * What a {@link Brain} is: where, how much, which models ({@link Brain#status()}).
 *
 * @param dataDir the data directory
 * @param records records in the index
 * @param chunks chunks in the index
 * @param sizeBytes index size on disk
 * @param embeddingModel the index's embedding model
 * @param lastSyncAt when the index was last written, or {@code null}
 * @param chatModel the configured chat model spec
 * @param readOnly whether this brain was opened read-only
 */
public record BrainStatus(
    Path dataDir,
    long records,
    long chunks,
    long sizeBytes,
    String embeddingModel,
    Instant lastSyncAt,
    String chatModel,
    boolean readOnly) {

  /** The status of a brain with {@code config} whose index reports {@code stats}. */
  static BrainStatus of(BrainConfig config, IndexStats stats, boolean readOnly) {
    return new BrainStatus(
        config.dataDir(),
        stats.records(),
        stats.chunks(),
        stats.sizeBytes(),
        stats.metadata().modelId(),
        stats.metadata().lastSyncAt(),
        config.chat().model(),
        readOnly);
  }
}
