package dev.brain.solr;

import java.util.List;
import java.util.Objects;

/**
 * Where brain's SolrCloud collection is and how brain creates it on first use.
 *
 * @param zkHosts ZooKeeper {@code host:port} entries of the cluster (with an optional {@code
 *     /chroot} on the last), or empty to reach it by {@code urls}
 * @param urls base URLs of Solr nodes ({@code http://host:8983/solr}); several let brain reach the
 *     cluster while one node is down; empty when {@code zkHosts} is given
 * @param collection the collection brain reads and writes; default {@value #DEFAULT_COLLECTION}
 * @param shards shards of a collection brain creates; default 2
 * @param replicas replicas of each shard of a collection brain creates; default 2
 */
public record SolrConfig(
    List<String> zkHosts, List<String> urls, String collection, int shards, int replicas) {

  /** The collection's name unless configured. */
  public static final String DEFAULT_COLLECTION = "brain";

  /**
   * @throws IllegalArgumentException if neither ZooKeeper hosts nor URLs are given, or counts are
   *     below 1
   */
  public SolrConfig {
    zkHosts = List.copyOf(Objects.requireNonNull(zkHosts, "zkHosts"));
    urls = List.copyOf(Objects.requireNonNull(urls, "urls"));
    if (zkHosts.isEmpty() && urls.isEmpty()) {
      throw new IllegalArgumentException(
          "index.backend is solr but neither index.solr.zk-hosts nor index.solr.url is set; set"
              + " one, e.g. index.solr.url: http://127.0.0.1:8983/solr");
    }
    if (collection == null || collection.isBlank()) {
      collection = DEFAULT_COLLECTION;
    }
    if (shards < 1 || replicas < 1) {
      throw new IllegalArgumentException("shards and replicas must be 1 or more");
    }
  }

  /** A cluster reached through these Solr base URLs. */
  public static SolrConfig ofUrls(List<String> urls, String collection, int shards, int replicas) {
    return new SolrConfig(List.of(), urls, collection, shards, replicas);
  }

  /** Where the cluster is, for messages: the ZooKeeper hosts or the URLs. */
  public String where() {
    return zkHosts.isEmpty() ? String.join(",", urls) : "zk " + String.join(",", zkHosts);
  }
}
