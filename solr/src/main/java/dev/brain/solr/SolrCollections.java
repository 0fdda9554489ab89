package dev.brain.solr;

import dev.brain.index.IndexConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.client.solrj.request.schema.SchemaRequest;
import org.apache.solr.client.solrj.response.ConfigSetAdminResponse;
import org.apache.solr.common.SolrException;

/**
 * brain's collection on a cluster: the client, the configset rendered from the schema in this
 * module (vector dimension from the embedding model, stop words from brain's own analyzer), the
 * collection created on first use, and the checks that refuse a collection brain cannot use.
 */
final class SolrCollections {
  private SolrCollections() {}

  private static final String RESOURCES = "/dev/brain/solr/configset/";

  /** How long a collection brain creates may take to answer its first query. */
  private static final long READY_MILLIS = TimeUnit.SECONDS.toMillis(90);

  /** How long brain waits for a Solr node or ZooKeeper to accept a connection. */
  static final int CONNECT_SECONDS = 5;

  /**
   * A client for the cluster of {@code config}, with its collection as the default.
   *
   * @throws SolrBackendException naming where no node answered (SolrJ asks the cluster for its live
   *     nodes while building the client)
   */
  static CloudSolrClient connect(SolrConfig config) {
    try {
      return build(config);
    } catch (RuntimeException e) {
      throw unreachable(config, e);
    }
  }

  private static CloudSolrClient build(SolrConfig config) {
    if (config.zkHosts().isEmpty()) {
      return new CloudHttp2SolrClient.Builder(config.urls())
          .withHttpClientBuilder(
              new Http2SolrClient.Builder()
                  .withConnectionTimeout(CONNECT_SECONDS, TimeUnit.SECONDS))
          .withDefaultCollection(config.collection())
          .build();
    }
    var hosts = new ArrayList<>(config.zkHosts());
    String last = hosts.removeLast();
    int slash = last.indexOf('/');
    hosts.add(slash < 0 ? last : last.substring(0, slash));
    Optional<String> chroot = slash < 0 ? Optional.empty() : Optional.of(last.substring(slash));
    return new CloudHttp2SolrClient.Builder(hosts, chroot)
        .withZkConnectTimeout(CONNECT_SECONDS, TimeUnit.SECONDS)
        .withDefaultCollection(config.collection())
        .build();
  }

  /** The configset's name for a model dimension: one configset per vector length. */
  static String configsetName(IndexConfig index) {
    return "brain-v1-" + index.model().dimension() + "d";
  }

  /**
   * Makes sure the collection exists (uploading brain's configset and creating the collection with
   * the configured shards and replicas if not) and that its vector field fits the model.
   *
   * @throws SolrBackendException if Solr cannot be reached, the collection is not brain's, or its
   *     vector dimension differs from the model's
   */
  static void ensure(CloudSolrClient client, SolrConfig config, IndexConfig index) {
    List<String> existing;
    try {
      existing = CollectionAdminRequest.listCollections(client);
    } catch (IOException | SolrServerException | RuntimeException e) {
      // SolrJ reports a cluster it cannot reach as a bare RuntimeException.
      throw unreachable(config, e);
    }
    if (!existing.contains(config.collection())) {
      create(client, config, index);
    }
    checkDimension(client, config, index);
  }

  /**
   * No node answered: says where, within how long, and which setting to check. SolrJ's own text
   * ("Failed fetching live_nodes ... re-creating a new CloudSolrClient") is no help to a user, so
   * only a root cause of a few words (such as "Connection refused") is kept.
   */
  static SolrBackendException unreachable(SolrConfig config, Exception e) {
    String cause = rootMessage(e);
    boolean zk = !config.zkHosts().isEmpty();
    return new SolrBackendException(
        "no SolrCloud node answered at "
            + (zk
                ? "ZooKeeper " + String.join(",", config.zkHosts())
                : String.join(", ", config.urls()))
            + " within "
            + CONNECT_SECONDS
            + " s"
            + (cause.length() <= 80 && !cause.contains("live_nodes") ? " (" + cause + ")" : "")
            + ": is it running? (bin/solr-cluster starts a local one) Check "
            + (zk ? "index.solr.zk-hosts" : "index.solr.url")
            + " in brain.yaml.",
        e);
  }

  private static void create(CloudSolrClient client, SolrConfig config, IndexConfig index) {
    String configset = configsetName(index);
    try {
      uploadIfMissing(client, configset, index.model().dimension(), index);
      CollectionAdminRequest.createCollection(
              config.collection(), configset, config.shards(), config.replicas())
          .setRouterField("parent_key")
          .process(client);
      waitUntilReady(client, config);
    } catch (IOException | SolrServerException | SolrException e) {
      throw new SolrBackendException(
          "could not create the Solr collection '"
              + config.collection()
              + "' ("
              + config.shards()
              + " shards x "
              + config.replicas()
              + " replicas) at "
              + config.where()
              + ": "
              + rootMessage(e)
              + ". A cluster needs at least as many live nodes as replicas per shard.",
          e);
    }
  }

  /** Uploads brain's configset for {@code dimension} under {@code name} unless it exists. */
  static void uploadIfMissing(CloudSolrClient client, String name, int dimension, IndexConfig index)
      throws IOException, SolrServerException {
    ConfigSetAdminResponse.List list = new ConfigSetAdminRequest.List().process(client);
    if (list.getConfigSets().contains(name)) {
      return;
    }
    Path zip = Files.createTempFile("brain-configset", ".zip");
    try {
      Files.write(zip, configsetZip(dimension, index));
      var upload = new ConfigSetAdminRequest.Upload();
      upload.setConfigSetName(name);
      upload.setUploadFile(zip.toFile(), "application/zip");
      upload.process(client);
    } finally {
      Files.deleteIfExists(zip);
    }
  }

  private static void waitUntilReady(CloudSolrClient client, SolrConfig config)
      throws IOException, SolrServerException {
    long deadline = System.currentTimeMillis() + READY_MILLIS;
    while (true) {
      try {
        client.query(config.collection(), new SolrQuery("*:*"));
        return;
      } catch (SolrException e) {
        if (System.currentTimeMillis() > deadline) {
          throw e;
        }
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while the collection was created", e);
      }
    }
  }

  /**
   * Refuses a collection without brain's vector field type, or whose vectors have another length
   * than the model's.
   */
  private static void checkDimension(CloudSolrClient client, SolrConfig config, IndexConfig index) {
    Object dimension;
    try {
      var response = new SchemaRequest.FieldType("knn_vector").process(client, config.collection());
      dimension = response.getFieldType().getAttributes().get("vectorDimension");
    } catch (IOException | SolrServerException | SolrException e) {
      throw new SolrBackendException(
          "the Solr collection '"
              + config.collection()
              + "' at "
              + config.where()
              + " is not brain's: its schema has no field type knn_vector ("
              + rootMessage(e)
              + "). Name another collection in index.solr.collection; brain creates it with its"
              + " own configset.",
          e);
    }
    int expected = index.model().dimension();
    if (dimension == null || Integer.parseInt(dimension.toString()) != expected) {
      throw new SolrBackendException(
          "the Solr collection '"
              + config.collection()
              + "' stores vectors of "
              + dimension
              + " dimensions, but the embedding model "
              + index.model().id()
              + " makes vectors of "
              + expected
              + ". Vectors of different lengths cannot be searched together: name a new collection"
              + " in index.solr.collection (brain creates it with configset "
              + configsetName(index)
              + ") or use the model the collection was built with.");
    }
  }

  /** brain's configset, rendered for vectors of {@code dimension}, as a zip. */
  static byte[] configsetZip(int dimension, IndexConfig index) {
    var out = new ByteArrayOutputStream();
    try (var zip = new ZipOutputStream(out)) {
      put(zip, "solrconfig.xml", resource("solrconfig.xml"));
      String schema =
          resource("schema.xml")
              .replace("@DIMENSION@", Integer.toString(dimension))
              .replace("@MAX_CONN@", Integer.toString(index.hnswMaxConn()))
              .replace("@BEAM_WIDTH@", Integer.toString(index.hnswBeamWidth()));
      put(zip, "schema.xml", schema);
      put(zip, "stopwords_en.txt", stopWords());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** The stop set of brain's {@link EnglishAnalyzer}, one word a line. */
  static String stopWords() {
    var words = new TreeSet<String>();
    EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.forEach(w -> words.add(new String((char[]) w)));
    return "# EnglishAnalyzer.ENGLISH_STOP_WORDS_SET of brain's Lucene, written by brain\n"
        + String.join("\n", words)
        + "\n";
  }

  private static void put(ZipOutputStream zip, String name, String text) throws IOException {
    zip.putNextEntry(new ZipEntry(name));
    zip.write(text.getBytes(StandardCharsets.UTF_8));
    zip.closeEntry();
  }

  private static String resource(String name) {
    try (InputStream in = SolrCollections.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException("configset resource missing: " + RESOURCES + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage();
    return m == null ? t.getClass().getSimpleName() : m;
  }
}
