package dev.brain.retrieval;

/** How the vector lane searches the chunk embeddings. */
public enum VectorSearch implements WireName {
  /**
   * Exact when the (filtered) candidate set has at most {@link
   * SearchOptions#EXACT_SEARCH_MAX_CHUNKS} chunks, HNSW otherwise; the default. HNSW with a filter
   * is Lucene's filtered search, which itself turns exact when the filter lets fewer than {@code
   * depth} chunks through or the graph walk visits more chunks than the filter allows.
   */
  AUTO,
  /** Always the HNSW graph (Lucene's {@code KnnFloatVectorQuery}), with filters as pre-filter. */
  APPROXIMATE,
  /** Always an exact scan of every candidate chunk: the reference for recall measurements. */
  EXACT;
}
