/**
 * Search over a brain index: the lanes (BM25, vector, exact tag, related) over the same filters,
 * their fusion with provenance, and one evidence row per record with a query-centred excerpt.
 *
 * <p>{@link dev.brain.retrieval.Retriever} is the entry point, over a {@link
 * dev.brain.retrieval.Backend} (the embedded index, or SolrCloud from module {@code solr}); a
 * search is asked with {@link dev.brain.retrieval.SearchOptions} (a surface's request is read and
 * completed from the configuration by {@code dev.brain.SearchRequest}) and answered with a {@link
 * dev.brain.retrieval.SearchResult} of {@link dev.brain.retrieval.EvidenceRow}s, or refused with an
 * {@link dev.brain.retrieval.InvalidSearchException}. The other public records and enums are the
 * shapes of those answers, {@link dev.brain.retrieval.WireName} (the wire names of brain's enums),
 * or the backend seam that {@code solr} implements ({@link dev.brain.retrieval.Hit}, {@link
 * dev.brain.retrieval.LaneHits}, {@link dev.brain.retrieval.StoredChunk}, {@link
 * dev.brain.retrieval.QueryText}, {@link dev.brain.retrieval.VectorSearch}). The lanes, fusion, row
 * building, excerpts and the Lucene queries of the embedded backend are package-private.
 */
package dev.brain.retrieval;
