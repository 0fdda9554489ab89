/**
 * brain's retrieval: the lanes, their fusion and the evidence rows over a {@code Backend} (the
 * embedded index or SolrCloud). One package, all of it API.
 */
module dev.brain.retrieval {
  requires transitive dev.brain.index;
  requires com.fasterxml.jackson.annotation;
  requires org.apache.lucene.analysis.common;

  exports dev.brain.retrieval;
}
