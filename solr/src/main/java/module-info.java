/**
 * brain's SolrCloud backend: the {@code Backend} of the retrieval module over a Solr collection.
 * Not API: the door ({@code dev.brain.Brain}) opens it from {@code index.backend: solr}.
 *
 * <p>SolrJ has no module name of its own (no module-info, no {@code Automatic-Module-Name}): it
 * stays on the class path, and this module reads the class path ({@code --add-reads
 * dev.brain.solr=ALL-UNNAMED} in the pom) instead of requiring a name derived from a file name. No
 * SolrJ type appears in this module's public signatures.
 */
module dev.brain.solr {
  requires transitive dev.brain.retrieval;
  requires com.fasterxml.jackson.databind;
  requires org.apache.lucene.analysis.common;

  exports dev.brain.solr;
}
