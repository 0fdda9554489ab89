package dev.brain.index;

import dev.brain.index.importer.Importers;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;

/**
 * Everything that changes a brain index, one at a time: syncs (full, partial, records handed over)
 * and removing a collection each hold the sync lock, and a sync that fails commits the records it
 * wrote completely. A read-only index refuses all of it.
 */
final class IndexWrites {

  /** What a sync does with its run. */
  interface SyncWork {
    SyncReport on(SyncRun run) throws IOException;
  }

  private final IndexConfig config;
  private final IndexWriter writer; // null when read-only
  private final SearcherManager searchers;
  private final IndexCommits commits;
  private final LazyEmbedder embedder;
  private final ReentrantLock syncLock = new ReentrantLock();
  private volatile UnaryOperator<RecordPreparer.FileReader> readers = UnaryOperator.identity();

  /**
   * Least time between two prunes of the embedding cache after syncs: a watcher syncs every save,
   * and a prune reads every embedding hash. A later prune only marks orphans later.
   */
  static final Duration PRUNE_INTERVAL = Duration.ofMinutes(10);

  private EmbeddingCache cache; // opened by the first write, closed with the index
  private long lastPruneNanos;
  private boolean pruned;

  IndexWrites(
      IndexConfig config,
      IndexWriter writer,
      SearcherManager searchers,
      IndexCommits commits,
      LazyEmbedder embedder) {
    this.config = config;
    this.writer = writer;
    this.searchers = searchers;
    this.commits = commits;
    this.embedder = embedder;
  }

  /**
   * Runs one sync.
   *
   * @throws IllegalStateException if the index is read-only or another sync is running
   */
  SyncReport sync(SyncListener listener, SyncWork work) throws IOException {
    requireWritable();
    if (!syncLock.tryLock()) {
      throw new IllegalStateException("a sync is already running on " + config.directory());
    }
    try {
      EmbeddingCache vectors = cache();
      var store =
          new LuceneSyncStore(
              writer,
              searchers,
              config.model().dimension(),
              (complete, synced) -> {
                commits.commit(complete, synced);
                // after the index: a crash between the two loses cache entries only
                vectors.commit();
              });
      Importers importers = Importers.defaults();
      var run =
          new SyncRun(
              config,
              store,
              embedder::get,
              embedder::chunker,
              vectors,
              importers,
              readers.apply(importers::read),
              commits.collectionSyncs(),
              listener == null ? SyncListener.NONE : listener);
      SyncReport report;
      try {
        report = work.on(run);
      } catch (IOException | RuntimeException e) {
        commits.commitWhatIsComplete(e);
        vectors.commit();
        throw e;
      }
      boolean due = !pruned || System.nanoTime() - lastPruneNanos >= PRUNE_INTERVAL.toNanos();
      if (due && (report.updated() > 0 || report.deleted() > 0)) {
        pruneCache(vectors); // chunks went away: their vectors are orphaned from now
      }
      return report;
    } finally {
      syncLock.unlock();
    }
  }

  /**
   * Runs one sync that may not write (see {@link BrainIndex#syncIfUnchanged}): on the last commit,
   * with a store, embedder and chunker that throw {@link WriteNeeded} at first use and no embedding
   * cache. Not with a summary model, whose pass works on the writer directly.
   *
   * @return its report, or empty when it had something to write, or another sync is running
   */
  Optional<SyncReport> syncIfUnchanged(SyncWork work) throws IOException {
    if (config.summaryModel() != null || !syncLock.tryLock()) {
      return Optional.empty();
    }
    try {
      var store =
          new LuceneSyncStore(
              null,
              searchers,
              config.model().dimension(),
              (complete, synced) -> {
                if (!complete || !commits.changesOnlyTimes(synced)) {
                  throw new WriteNeeded();
                }
              });
      Importers importers = Importers.defaults();
      var run =
          new SyncRun(
              config,
              store,
              () -> {
                throw new WriteNeeded();
              },
              () -> {
                throw new WriteNeeded();
              },
              EmbeddingCache.none(),
              importers,
              readers.apply(importers::read),
              commits.collectionSyncs(),
              SyncListener.NONE);
      try {
        return Optional.of(work.on(run));
      } catch (WriteNeeded e) {
        return Optional.empty();
      }
    } finally {
      syncLock.unlock();
    }
  }

  /** Makes later syncs read files through {@code wrap} of the importers (tests count reads). */
  void readFilesThrough(UnaryOperator<RecordPreparer.FileReader> wrap) {
    readers = wrap;
  }

  /** See {@link BrainIndex#removeCollection}. */
  long removeCollection(String name) throws IOException {
    requireWritable();
    if (!syncLock.tryLock()) {
      throw new IllegalStateException("a sync is running on " + config.directory());
    }
    try {
      EmbeddingCache vectors = cache(); // seeded before the collection's vectors go
      long records;
      searchers.maybeRefreshBlocking();
      IndexSearcher searcher = searchers.acquire();
      try {
        records = searcher.count(IndexReads.inCollection(name, IndexReads.recordsQuery()));
      } finally {
        searchers.release(searcher);
      }
      writer.deleteDocuments(new TermQuery(new Term(IndexFields.COLLECTION, name)));
      commits.commitWithout(name);
      pruneCache(vectors);
      return records;
    } finally {
      syncLock.unlock();
    }
  }

  /**
   * The embedding cache, opened on first need (before anything is deleted); an empty one is seeded
   * with the vectors the index holds, so an index older than its cache loses none.
   */
  private EmbeddingCache cache() throws IOException {
    if (cache != null) {
      return cache;
    }
    cache = EmbeddingCache.open(config);
    if (cache.isEmpty()) {
      searchers.maybeRefreshBlocking();
      IndexSearcher searcher = searchers.acquire();
      try {
        cache.seed(searcher);
      } finally {
        searchers.release(searcher);
      }
    }
    return cache;
  }

  /** Prunes the embedding cache against the last commit of the index. */
  private void pruneCache(EmbeddingCache vectors) throws IOException {
    pruned = true;
    lastPruneNanos = System.nanoTime();
    IndexSearcher searcher = searchers.acquire();
    try {
      vectors.prune(searcher, Instant.now());
    } finally {
      searchers.release(searcher);
    }
  }

  /** Closes the embedding cache, if it was opened. */
  void close() {
    if (cache != null) {
      cache.close();
    }
  }

  private void requireWritable() {
    if (writer == null) {
      throw new IllegalStateException(
          "the index at " + config.directory() + " was opened read-only; open it with open()");
    }
  }
}
