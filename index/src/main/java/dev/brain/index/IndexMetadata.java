package dev.brain.index;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * What an index was built with, kept in the Lucene commit user data so it changes only with a
 * commit (a crash can never leave it out of step with the documents).
 *
 * @param schemaVersion version of brain's document layout ({@link #CURRENT_SCHEMA_VERSION} for
 *     indexes written by this build)
 * @param modelId id of the embedding model every vector came from
 * @param dimension vector length
 * @param vectorFormat how vectors are stored
 * @param chunking chunker version and budget of the last sync ({@code
 *     chunker-v2/256/32/title-v1/analysis-v2})
 * @param lastSyncAt when the last complete sync that changed something finished (one that found
 *     everything as it was commits nothing), or {@code null} if none has
 */
public record IndexMetadata(
    int schemaVersion,
    String modelId,
    int dimension,
    VectorFormat vectorFormat,
    String chunking,
    Instant lastSyncAt) {

  /** The document layout this build writes and reads. */
  public static final int CURRENT_SCHEMA_VERSION = 2;

  /** The last schema before collections: keys without a collection, no {@code collection} field. */
  static final int BEFORE_COLLECTIONS = 1;

  private static final String SCHEMA_VERSION = "brain.schema_version";
  private static final String MODEL_ID = "brain.model_id";
  private static final String DIMENSION = "brain.dimension";
  private static final String VECTOR_FORMAT = "brain.vector_format";
  private static final String CHUNKING = "brain.chunking";
  private static final String LAST_SYNC_AT = "brain.last_sync_at";

  /** Metadata of a fresh index for this configuration. */
  static IndexMetadata fresh(IndexConfig config) {
    return new IndexMetadata(
        CURRENT_SCHEMA_VERSION,
        config.model().id(),
        config.model().dimension(),
        config.vectorFormat(),
        config.chunkingSignature(),
        null);
  }

  /** This metadata after a complete sync with {@code config} finishing at {@code at}. */
  IndexMetadata synced(IndexConfig config, Instant at) {
    return new IndexMetadata(
        schemaVersion, modelId, dimension, vectorFormat, config.chunkingSignature(), at);
  }

  /** The commit user data that stores this metadata. */
  Map<String, String> toUserData() {
    var data = new HashMap<String, String>();
    data.put(SCHEMA_VERSION, Integer.toString(schemaVersion));
    data.put(MODEL_ID, modelId);
    data.put(DIMENSION, Integer.toString(dimension));
    data.put(VECTOR_FORMAT, vectorFormat.name());
    data.put(CHUNKING, chunking);
    if (lastSyncAt != null) {
      data.put(LAST_SYNC_AT, lastSyncAt.toString());
    }
    return data;
  }

  /**
   * Reads metadata from commit user data.
   *
   * @throws IndexMismatchException if the commit carries no brain metadata or it cannot be read
   */
  static IndexMetadata fromUserData(Map<String, String> data, String indexDir) {
    if (!data.containsKey(SCHEMA_VERSION) || !data.containsKey(MODEL_ID)) {
      throw new IndexMismatchException(
          "The Lucene index at "
              + indexDir
              + " has no brain metadata: it was not written by brain. Point brain at another data"
              + " directory with `brain --data DIR ...`, or delete "
              + indexDir
              + " and re-run `brain index`.");
    }
    try {
      String lastSync = data.get(LAST_SYNC_AT);
      return new IndexMetadata(
          Integer.parseInt(data.get(SCHEMA_VERSION)),
          data.get(MODEL_ID),
          Integer.parseInt(data.get(DIMENSION)),
          VectorFormat.valueOf(data.get(VECTOR_FORMAT)),
          data.getOrDefault(CHUNKING, ""),
          lastSync == null ? null : Instant.parse(lastSync));
    } catch (RuntimeException e) {
      throw new IndexMismatchException(
          "The brain metadata of the index at "
              + indexDir
              + " is unreadable ("
              + data
              + "). Delete "
              + indexDir
              + " and re-run `brain index`.");
    }
  }
}
