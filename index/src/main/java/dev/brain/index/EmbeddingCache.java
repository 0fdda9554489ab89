package dev.brain.index;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * Every vector the model made for this index, by what it embedded: a small Lucene index beside the
 * main one ({@link IndexConfig#embeddingCacheDirectory()}), keyed by model id, dimension and the
 * embedding-input hash, holding the raw floats. A chunk whose input was embedded before (a note
 * removed and added again, renamed, moved, in a second collection, or an index rebuilt) gets its
 * vector from here instead of the model.
 *
 * <p>It is a cache: content-addressed, so an entry is right or absent, never stale, and the main
 * index never depends on it. It is committed after each commit of the main index; a crash between
 * the two loses at most entries (a later miss re-embeds them). Any failure to open, read or write
 * it (a corrupt folder, a full disk) is logged once and turns it off for the rest of the session: a
 * sync then embeds what it would have found here, and never fails for it. A corrupt cache is
 * replaced by an empty one on the next open.
 *
 * <p>Pruning ({@link #prune}) keeps every entry some live chunk of the index uses; an entry no
 * chunk uses is marked orphaned and deleted once it has been so for {@link #GRACE}, so a collection
 * removed and added again within that time is not embedded again. Not thread-safe for writes: only
 * the sync thread writes; {@link #find} may be called from any thread.
 */
final class EmbeddingCache implements Closeable {

  /** How long an entry no chunk uses is kept: 30 days. */
  static final Duration GRACE = Duration.ofDays(30);

  /** Version of the cache's documents, recorded in its commits; another one is started afresh. */
  static final String VERSION = "1";

  private static final System.Logger LOG = System.getLogger(EmbeddingCache.class.getName());
  private static final String VERSION_KEY = "brain.embedding_cache.version";
  private static final int SEED_BATCH = 1024;

  /**
   * Entries put before the searcher is reopened to see them; until then {@link #find} answers them
   * from memory. Reopening for every small put would flush a tiny segment each time.
   */
  static final int REFRESH_AFTER = 8192;

  /**
   * What a prune did.
   *
   * @param kept entries some chunk uses
   * @param orphaned entries no chunk uses, kept for the grace period
   * @param deleted entries deleted because no chunk used them for longer than the grace period
   */
  record Pruned(long kept, long orphaned, long deleted) {}

  private final Path folder;
  private final String prefix;
  private final int dimension;
  private final AtomicLong hits = new AtomicLong();
  private final Map<String, float[]> unsearched = new ConcurrentHashMap<>(); // by key
  private Directory directory;
  private IndexWriter writer;
  private SearcherManager searchers;
  private volatile boolean off;

  private EmbeddingCache(Path folder, String modelId, int dimension) {
    this.folder = folder;
    this.prefix = modelId + "/" + dimension + "/";
    this.dimension = dimension;
  }

  /** A cache that holds nothing (every lookup a miss, writes ignored), for a store without one. */
  static EmbeddingCache none() {
    var cache = new EmbeddingCache(null, "", 0);
    cache.off = true;
    return cache;
  }

  /**
   * The cache of {@code config}, created if there is none, replaced by an empty one if it cannot be
   * read, and turned off (every lookup a miss, writes ignored) if even that fails. Never throws.
   */
  static EmbeddingCache open(IndexConfig config) {
    var cache =
        new EmbeddingCache(
            config.embeddingCacheDirectory(), config.model().id(), config.model().dimension());
    try {
      cache.start(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
    } catch (LockObtainFailedException e) {
      cache.failed("open", e); // someone else's: never delete what another process holds
    } catch (IOException | RuntimeException e) {
      cache.closeQuietly();
      LOG.log(
          System.Logger.Level.WARNING,
          "the embedding cache at " + cache.folder + " cannot be read (" + e + "); starting anew");
      try {
        cache.deleteIndexFiles();
        cache.start(IndexWriterConfig.OpenMode.CREATE);
      } catch (IOException | RuntimeException again) {
        cache.failed("open", again);
      }
    }
    return cache;
  }

  /**
   * Deletes the Lucene files of an unreadable cache (its writer would read them first, even to
   * create a new index). The folder is the cache's own, and the index's write lock keeps every
   * other brain out of it.
   */
  private void deleteIndexFiles() throws IOException {
    if (!Files.isDirectory(folder)) {
      return;
    }
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        boolean lucene =
            name.startsWith("segments")
                || name.startsWith("pending_segments")
                || name.startsWith("_")
                || name.equals(IndexWriter.WRITE_LOCK_NAME); // released: the open failed
        if (lucene && Files.isRegularFile(file)) {
          Files.delete(file);
        }
      }
    }
  }

  private void start(IndexWriterConfig.OpenMode mode) throws IOException {
    Files.createDirectories(folder);
    directory = FSDirectory.open(folder);
    writer =
        new IndexWriter(
            directory, new IndexWriterConfig().setOpenMode(mode).setCommitOnClose(false));
    var userData = writer.getLiveCommitData();
    String version = null;
    if (userData != null) {
      for (var entry : userData) {
        if (VERSION_KEY.equals(entry.getKey())) {
          version = entry.getValue();
        }
      }
    }
    if (!VERSION.equals(version)) {
      if (writer.getDocStats().maxDoc > 0) {
        writer.deleteAll(); // written by another version: its entries may not mean what ours do
      }
      writer.setLiveCommitData(Map.of(VERSION_KEY, VERSION).entrySet());
      writer.commit();
    }
    // A cache of this version is opened without a commit: each commit is an fsync, and a sync
    // that changes nothing should write nothing.
    searchers = new SearcherManager(writer, null);
  }

  /** Lookups that found a vector since the cache was opened. */
  long hits() {
    return hits.get();
  }

  /**
   * The vector the model made for the embedding input hashed {@code embedHash}, or {@code null}
   * when there is none, or the cache is off or failed now.
   */
  float[] find(String embedHash) {
    if (off) {
      return null;
    }
    try {
      String key = prefix + embedHash;
      // Memory first: an entry leaves it only once a reopened searcher holds it.
      float[] put = unsearched.get(key);
      if (put != null) {
        hits.incrementAndGet();
        return put;
      }
      IndexSearcher searcher = searchers.acquire();
      try {
        float[] vector = CacheEntries.find(searcher, new BytesRef(key), dimension);
        if (vector != null) {
          hits.incrementAndGet();
        }
        return vector;
      } finally {
        searchers.release(searcher);
      }
    } catch (IOException | RuntimeException e) {
      failed("read", e);
      return null;
    }
  }

  /** Keeps the vectors the model just made, by embedding-input hash (visible to {@link #find}). */
  void put(Map<String, float[]> byEmbedHash) {
    if (off || byEmbedHash.isEmpty()) {
      return;
    }
    try {
      for (var entry : byEmbedHash.entrySet()) {
        String key = prefix + entry.getKey();
        writer.updateDocument(
            new Term(CacheEntries.KEY, key), CacheEntries.document(key, entry.getValue()));
        unsearched.put(key, entry.getValue());
      }
      if (unsearched.size() >= REFRESH_AFTER) {
        refresh();
      }
    } catch (IOException | RuntimeException e) {
      failed("write", e);
    }
  }

  /** Reopens the searcher on what was put; the entries kept in memory until then can go. */
  private void refresh() throws IOException {
    searchers.maybeRefreshBlocking();
    unsearched.clear();
  }

  /** Whether the cache holds no entry: new, started anew, or off. */
  boolean isEmpty() {
    if (off) {
      return true;
    }
    try {
      return writer.getDocStats().numDocs == 0;
    } catch (RuntimeException e) {
      failed("read", e);
      return true;
    }
  }

  /**
   * Copies every vector {@code index} holds into the cache and commits: an index synced before it
   * had a cache (or whose cache was lost) keeps its vectors for when its chunks go.
   */
  void seed(IndexSearcher index) {
    if (off) {
      return;
    }
    try {
      var batch = new HashMap<String, float[]>();
      for (LeafReaderContext leaf : index.getIndexReader().leaves()) {
        VectorLookup.forEachLive(
            leaf.reader(),
            dimension,
            (hash, vector) -> {
              if (batch.putIfAbsent(hash, vector) == null && batch.size() >= SEED_BATCH) {
                put(batch);
                batch.clear();
              }
            });
      }
      put(batch);
      writer.commit();
    } catch (IOException | RuntimeException e) {
      failed("seed", e);
    }
  }

  /** Makes what was put durable; after the main index's commit. */
  void commit() {
    if (off) {
      return;
    }
    try {
      writer.commit();
    } catch (IOException | RuntimeException e) {
      failed("commit", e);
    }
  }

  /**
   * Keeps the entries a live chunk of {@code index} uses, marks the others orphaned (from {@code
   * now}) and deletes those orphaned for longer than {@link #GRACE}; then commits. Entries of other
   * models are used by no chunk, so they go after the grace period too.
   *
   * @return what it did; all zero when the cache is off
   */
  Pruned prune(IndexSearcher index, Instant now) {
    if (off) {
      return new Pruned(0, 0, 0);
    }
    try {
      Set<String> used = VectorLookup.liveEmbedHashes(index);
      refresh();
      Pruned pruned;
      IndexSearcher searcher = searchers.acquire();
      try {
        pruned = CacheEntries.prune(searcher, writer, prefix, used, now.toEpochMilli());
      } finally {
        searchers.release(searcher);
      }
      writer.commit();
      searchers.maybeRefresh();
      return pruned;
    } catch (IOException | RuntimeException e) {
      failed("prune", e);
      return new Pruned(0, 0, 0);
    }
  }

  /** Logs the first failure and turns the cache off: syncs go on, embedding what they need. */
  private synchronized void failed(String action, Throwable e) {
    if (off) {
      return;
    }
    off = true;
    LOG.log(
        System.Logger.Level.WARNING,
        "the embedding cache at "
            + folder
            + " failed to "
            + action
            + " and is off until the index is opened again; chunks it holds are embedded anew",
        e);
    closeQuietly();
  }

  private void closeQuietly() {
    try {
      IOUtils.close(searchers, writer, directory);
    } catch (IOException | RuntimeException ignored) {
      // already failing; the warning has been logged
    }
    searchers = null;
    writer = null;
    directory = null;
    unsearched.clear();
  }

  @Override
  public synchronized void close() {
    off = true;
    closeQuietly();
  }
}
