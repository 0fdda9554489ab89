package dev.brain.index;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;

/**
 * The embedded Lucene index as a sync's store: a record and its chunks are one document block
 * replaced atomically, file states are documents of their own, and a commit is the index's commit
 * (with the embedding cache after it, see {@link IndexWrites}).
 */
final class LuceneSyncStore implements SyncStore {

  /** Commits the writer and refreshes the searchers. */
  interface Committer {
    /**
     * @param complete true for the final commit of a sync, which records the sync time
     * @param synced the outcome per collection, on the final commit (empty otherwise)
     */
    void commit(boolean complete, List<CollectionSync> synced) throws IOException;
  }

  private final IndexWriter writer;
  private final SearcherManager searchers;
  private final Committer committer;

  LuceneSyncStore(IndexWriter writer, SearcherManager searchers, Committer committer) {
    this.writer = writer;
    this.searchers = searchers;
    this.committer = committer;
  }

  /** The writer, for the stages of a sync that still work on Lucene directly. */
  IndexWriter writer() {
    return writer;
  }

  /** The searchers, for the stages of a sync that still read Lucene directly. */
  SearcherManager searchers() {
    return searchers;
  }

  @Override
  public Map<String, IndexReads.RecordState> recordStates() throws IOException {
    searchers.maybeRefreshBlocking();
    IndexSearcher searcher = searchers.acquire();
    try {
      return IndexReads.recordStates(searcher);
    } finally {
      searchers.release(searcher);
    }
  }

  @Override
  public Map<String, FileStates.FileState> fileStates() throws IOException {
    searchers.maybeRefreshBlocking();
    IndexSearcher searcher = searchers.acquire();
    try {
      return FileStates.read(searcher);
    } finally {
      searchers.release(searcher);
    }
  }

  @Override
  public void write(SyncItem.Prepared p) throws IOException {
    CorpusRecord record = p.record();
    writer.updateDocuments(
        Documents.parentTerm(record.key()),
        Documents.block(
            record,
            p.contentHash(),
            p.summary(),
            p.collection(),
            p.chunking(),
            p.chunks(),
            p.embedHashes(),
            Arrays.asList(p.vectors())));
  }

  @Override
  public void delete(String key) throws IOException {
    writer.deleteDocuments(Documents.parentTerm(key));
  }

  @Override
  public void rememberFile(String path, FileStates.FileState state) throws IOException {
    writer.updateDocument(FileStates.term(path), FileStates.document(path, state));
  }

  @Override
  public void forgetFile(String path) throws IOException {
    writer.deleteDocuments(FileStates.term(path));
  }

  @Override
  public boolean hasUncommittedChanges() {
    return writer.hasUncommittedChanges();
  }

  @Override
  public void commit(boolean complete, List<CollectionSync> synced) throws IOException {
    committer.commit(complete, synced);
  }
}
