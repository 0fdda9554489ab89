/**
 * A local SolrCloud from Solr's own Maven artifacts ({@link dev.brain.solrcluster.LocalCluster}),
 * run in a JVM of its own by the integration test and {@code bin/solr-cluster}. No brain module
 * depends on this one: Solr 9 and its Lucene 9 never share a classpath with brain's Lucene 10.
 */
package dev.brain.solrcluster;
