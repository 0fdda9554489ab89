/**
 * brain on SolrCloud: {@link dev.brain.solr.SolrBackend}, the second implementation of the backend
 * seam ({@link dev.brain.retrieval.Backend}), configured by {@link dev.brain.solr.SolrConfig}. The
 * lanes run in a Solr collection (BM25 by edismax, vectors by knn) and the records live there;
 * brain's importers, chunker and embedder write them through SolrJ. Everything else in the package
 * is package-private machinery.
 */
package dev.brain.solr;
