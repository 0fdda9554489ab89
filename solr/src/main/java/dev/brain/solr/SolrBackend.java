package dev.brain.solr;

import dev.brain.chunking.Chunker;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionStatus;
import dev.brain.index.CorpusRecord;
import dev.brain.index.IndexConfig;
import dev.brain.index.IndexMetadata;
import dev.brain.index.IndexMismatchException;
import dev.brain.index.IndexStats;
import dev.brain.index.RecordDetail;
import dev.brain.index.StoreSync;
import dev.brain.index.SyncListener;
import dev.brain.index.SyncReport;
import dev.brain.models.Embedder;
import dev.brain.retrieval.Backend;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.common.SolrDocument;

/**
 * brain on SolrCloud: the second {@link Backend}. The lanes run in a Solr collection (BM25 by
 * {@code edismax}, vectors by {@code {!knn}}, shards and replicas by Solr) and the records live
 * there; brain's own pipeline (importers, chunker, bundled embedder) writes them through SolrJ, and
 * everything above the seam (fusion with lane provenance, rows, research, the surfaces) is the
 * embedded brain's. Only SolrJ runs in brain's JVM.
 *
 * <pre>{@code
 * var solr = SolrConfig.ofUrls(List.of("http://127.0.0.1:8983/solr"), "brain", 2, 2);
 * try (Backend backend = SolrBackend.open(solr, IndexConfig.defaults(dataDir))) {
 *   backend.syncCollections(List.of(CollectionRoot.of("vault", vault)), SyncListener.NONE);
 *   SearchResult r = new Retriever(backend).search("grind size", SearchOptions.defaults());
 * }
 * }</pre>
 */
public final class SolrBackend implements Backend {

  private final SolrConfig solr;
  private final IndexConfig config;
  private final CloudSolrClient client;
  private final SolrStore store;
  private final Analyzer analyzer = new EnglishAnalyzer();
  private final ReentrantLock syncLock = new ReentrantLock();
  private final Object lazyLock = new Object();
  private Embedder embedder;
  private Chunker chunker;

  private final boolean ownsEmbedder;

  private SolrBackend(
      SolrConfig solr, IndexConfig config, CloudSolrClient client, Embedder embedder) {
    this.solr = solr;
    this.config = config;
    this.client = client;
    this.store = new SolrStore(client, solr);
    this.embedder = embedder;
    this.ownsEmbedder = embedder == null;
  }

  /**
   * Connects to the cluster, creating brain's collection with its configset on first use.
   *
   * @throws SolrBackendException if Solr cannot be reached or the collection is not one brain can
   *     use (not brain's schema, another vector dimension)
   * @throws IndexMismatchException if the collection was synced with another embedding model
   */
  public static SolrBackend open(SolrConfig solr, IndexConfig config) throws IOException {
    return open(solr, config, null);
  }

  /**
   * As {@link #open(SolrConfig, IndexConfig)}, with an embedder the caller owns (closing the
   * backend does not close it): for benchmarks and tests that must not run the model.
   *
   * @param embedder an embedder of {@code config.model()}, or {@code null} to load one lazily
   */
  public static SolrBackend open(SolrConfig solr, IndexConfig config, Embedder embedder)
      throws IOException {
    Objects.requireNonNull(solr, "solr");
    Objects.requireNonNull(config, "config");
    CloudSolrClient client = SolrCollections.connect(solr);
    try {
      SolrCollections.ensure(client, solr, config);
      var backend = new SolrBackend(solr, config, client, embedder);
      backend.checkModel();
      return backend;
    } catch (IOException | RuntimeException e) {
      client.close();
      throw e;
    }
  }

  private void checkModel() throws IOException {
    Optional<SolrDocument> meta = store.meta();
    String model = meta.map(d -> SolrDocs.str(d, SolrDocs.MODEL_ID)).orElse(null);
    if (model != null && !model.equals(config.model().id())) {
      throw new IndexMismatchException(
          "The Solr collection '"
              + solr.collection()
              + "' was built with embedding model "
              + model
              + ", but this run uses "
              + config.model().id()
              + ". Vectors of different models cannot be mixed. Use the model the collection was"
              + " built with, or name a new collection in index.solr.collection and run `brain"
              + " index`.");
    }
  }

  @Override
  public View view() {
    return new SolrView(store, "collection '" + solr.collection() + "'");
  }

  @Override
  public Analyzer analyzer() {
    return analyzer;
  }

  @Override
  public Embedder embedder() {
    synchronized (lazyLock) {
      if (embedder == null) {
        embedder = Embedder.open(config.model());
      }
      return embedder;
    }
  }

  private Chunker chunker() {
    Embedder tokens = embedder();
    synchronized (lazyLock) {
      if (chunker == null) {
        chunker =
            new Chunker(tokens::countTokens, config.chunkMaxTokens(), config.chunkOverlapTokens());
      }
      return chunker;
    }
  }

  @Override
  public IndexConfig config() {
    return config;
  }

  /** The cluster and collection, e.g. {@code solr http://127.0.0.1:8983/solr collection brain}. */
  @Override
  public String location() {
    return "solr " + solr.where() + " collection " + solr.collection();
  }

  @Override
  public SyncReport syncCollections(List<CollectionRoot> collections, SyncListener listener)
      throws IOException {
    return locked(() -> sync(listener).run(List.copyOf(collections)));
  }

  /**
   * Syncs the whole collection: Solr keeps no per-file state a partial sync could rely on, and
   * unchanged records cost a hash comparison only.
   */
  @Override
  public SyncReport syncChanged(CollectionRoot collection, Set<Path> changed, SyncListener listener)
      throws IOException {
    return syncCollections(List.of(collection), listener);
  }

  @Override
  public SyncReport put(List<CorpusRecord> records, SyncListener listener) throws IOException {
    return locked(() -> sync(listener).put(List.copyOf(records)));
  }

  private StoreSync sync(SyncListener listener) {
    return new StoreSync(
        config, new SolrRecordStore(store, config), this::embedder, this::chunker, listener);
  }

  private interface Work<T> {
    T run() throws IOException;
  }

  private <T> T locked(Work<T> work) throws IOException {
    if (!syncLock.tryLock()) {
      throw new IllegalStateException("a sync is already running on " + location());
    }
    try {
      return work.run();
    } finally {
      syncLock.unlock();
    }
  }

  @Override
  public long removeCollection(String name) throws IOException {
    return locked(
        () -> {
          long records =
              store.count(
                  SolrQueries.RECORDS,
                  SolrQueries.term(dev.brain.index.IndexFields.COLLECTION, name));
          store
              .writes()
              .deleteByQuery(SolrQueries.term(dev.brain.index.IndexFields.COLLECTION, name));
          store.writes().commit();
          return records;
        });
  }

  /** Deletes every document of the collection (for {@code brain index --rebuild}). */
  public void deleteAll() throws IOException {
    locked(
        () -> {
          store.writes().deleteByQuery("*:*");
          store.writes().commit();
          return null;
        });
  }

  @Override
  public List<CollectionStatus> collections() throws IOException {
    return store.collections();
  }

  @Override
  public IndexStats stats() throws IOException {
    return store.stats(config);
  }

  @Override
  public Optional<RecordDetail> get(String key) throws IOException {
    return store.get(key);
  }

  @Override
  public IndexMetadata metadata() {
    try {
      return store.metadata(config);
    } catch (IOException e) {
      throw new SolrBackendException(
          "could not read brain's metadata from " + location() + ": " + e.getMessage(), e);
    }
  }

  /** Always current: every Solr request reads the collection's last commit. */
  @Override
  public boolean refresh() {
    return true;
  }

  @Override
  public void close() throws IOException {
    try {
      client.close();
    } finally {
      synchronized (lazyLock) {
        if (ownsEmbedder && embedder != null) {
          embedder.close();
          embedder = null;
        }
      }
    }
  }
}
