package dev.brain.index;

/**
 * How chunk vectors are stored in the HNSW graph. Every format keeps the raw float vectors on disk
 * as well, so embeddings can be read back and reused on re-sync whatever the format.
 */
public enum VectorFormat {
  /** Full 32-bit floats (Lucene's default HNSW format). The default: exact, 1.5 KB per vector. */
  FLOAT,
  /**
   * Scalar-quantized to 8 bits per dimension for search; about 4x smaller graph scoring data. A
   * memory option, not a speed one: on a machine whose RAM holds the float vectors it searches
   * slower than {@link #FLOAT} (bench README, vector formats).
   */
  INT8,
  /**
   * Scalar-quantized to 4 bits per dimension for search; about 8x smaller, some recall lost. A
   * memory option like {@link #INT8}.
   */
  INT4
}
