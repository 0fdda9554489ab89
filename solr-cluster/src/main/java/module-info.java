/**
 * A local SolrCloud for brain's Solr tests and {@code bin/solr-cluster}, run in a JVM of its own
 * from the class path. Exports nothing.
 *
 * <p>Solr's server and test framework have no module name of their own (no module-info, no {@code
 * Automatic-Module-Name}): they stay on the class path, and this module reads the class path
 * ({@code --add-reads dev.brain.solrcluster=ALL-UNNAMED} in the pom) instead of requiring names
 * derived from file names.
 */
module dev.brain.solrcluster {}
