package dev.brain.retrieval;

/**
 * One lane hit, before fusion.
 *
 * @param key the record key
 * @param doc the chunk's handle in the {@link Backend.View} the lane ran on, or {@link #NO_CHUNK}
 *     for a record-level hit (exact tag)
 * @param score the lane's raw score
 */
public record Hit(String key, int doc, double score) {

  /** {@link #doc()} of a hit on a whole record rather than a chunk. */
  public static final int NO_CHUNK = -1;

  public boolean hasChunk() {
    return doc != NO_CHUNK;
  }
}
