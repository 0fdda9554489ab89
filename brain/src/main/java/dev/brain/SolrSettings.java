package dev.brain;

import dev.brain.solr.SolrConfig;
import java.util.List;

/**
 * {@code index.solr.*}: the SolrCloud cluster of {@code index.backend: solr}. Ignored by the
 * embedded backend.
 *
 * @param zkHosts ZooKeeper of the cluster ({@code host:port,host:port/chroot}); default none. Env
 *     {@code BRAIN_SOLR_ZK_HOSTS}
 * @param urls Solr base URLs ({@code http://host:8983/solr}, comma-separated: several keep brain
 *     connected while a node is down); default none. Env {@code BRAIN_SOLR_URL}
 * @param collection the collection; default {@value SolrConfig#DEFAULT_COLLECTION}. Env {@code
 *     BRAIN_SOLR_COLLECTION}
 * @param shards shards of a collection brain creates; default 2
 * @param replicas replicas per shard of a collection brain creates; default 2
 */
public record SolrSettings(
    List<String> zkHosts, List<String> urls, String collection, int shards, int replicas) {

  /** The SolrJ configuration of these settings. */
  public SolrConfig toSolrConfig() {
    return new SolrConfig(zkHosts, urls, collection, shards, replicas);
  }

  /** The {@code index.solr.*} values of {@code r}. */
  static SolrSettings read(ConfigReader r) {
    return new SolrSettings(
        r.list("index.solr.zk-hosts", "BRAIN_SOLR_ZK_HOSTS"),
        r.list("index.solr.url", "BRAIN_SOLR_URL"),
        r.string("index.solr.collection", "BRAIN_SOLR_COLLECTION", SolrConfig.DEFAULT_COLLECTION),
        r.integer("index.solr.shards", null, 2, 1, 1024),
        r.integer("index.solr.replicas", null, 2, 1, 16));
  }
}
