package dev.brain.retrieval;

/**
 * One lane hit, before fusion.
 *
 * @param key the record key
 * @param doc the chunk's doc id in the searcher the lane ran on, or {@link #NO_CHUNK} for a
 *     record-level hit (exact tag)
 * @param score the lane's raw score
 */
record Hit(String key, int doc, double score) {

  /** {@link #doc()} of a hit on a whole record rather than a chunk. */
  static final int NO_CHUNK = -1;

  boolean hasChunk() {
    return doc != NO_CHUNK;
  }
}
