package dev.brain.index;

import dev.brain.index.importer.Importers;
import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;
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
      var run =
          new SyncRun(
              config,
              writer,
              searchers,
              embedder::get,
              embedder::chunker,
              Importers.defaults(),
              listener == null ? SyncListener.NONE : listener,
              commits::commit);
      try {
        return work.on(run);
      } catch (IOException | RuntimeException e) {
        commits.commitWhatIsComplete(e);
        throw e;
      }
    } finally {
      syncLock.unlock();
    }
  }

  /** See {@link BrainIndex#removeCollection}. */
  long removeCollection(String name) throws IOException {
    requireWritable();
    if (!syncLock.tryLock()) {
      throw new IllegalStateException("a sync is running on " + config.directory());
    }
    try {
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
      return records;
    } finally {
      syncLock.unlock();
    }
  }

  private void requireWritable() {
    if (writer == null) {
      throw new IllegalStateException(
          "the index at " + config.directory() + " was opened read-only; open it with open()");
    }
  }
}
