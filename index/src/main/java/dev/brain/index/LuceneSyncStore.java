package dev.brain.index;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;

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

  private static final Query MISSING =
      new BooleanQuery.Builder()
          .add(IndexReads.chunksQuery(), Occur.FILTER)
          .add(new FieldExistsQuery(IndexFields.VECTOR), Occur.MUST_NOT)
          .build();

  private final IndexWriter writer; // null for a sync that may not write
  private final SearcherManager searchers;
  private final int dimension;
  private final Committer committer;

  LuceneSyncStore(
      IndexWriter writer, SearcherManager searchers, int dimension, Committer committer) {
    this.writer = writer;
    this.searchers = searchers;
    this.dimension = dimension;
    this.committer = committer;
  }

  /** The writer, for the stages of a sync that still work on Lucene directly. */
  IndexWriter writer() {
    if (writer == null) {
      throw new WriteNeeded();
    }
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
    writer()
        .updateDocuments(
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
    writer().deleteDocuments(Documents.parentTerm(key));
  }

  @Override
  public void rememberFile(String path, FileStates.FileState state) throws IOException {
    writer().updateDocument(FileStates.term(path), FileStates.document(path, state));
  }

  @Override
  public void forgetFile(String path) throws IOException {
    writer().deleteDocuments(FileStates.term(path));
  }

  @Override
  public float[][] storedVectors(List<String> embedHashes) throws IOException {
    var vectors = new float[embedHashes.size()][];
    IndexSearcher searcher = searchers.acquire();
    try {
      for (int i = 0; i < embedHashes.size(); i++) {
        vectors[i] = VectorLookup.find(searcher, embedHashes.get(i), dimension);
      }
    } finally {
      searchers.release(searcher);
    }
    return vectors;
  }

  /** In index order. */
  @Override
  public Map<String, Integer> missingChunksByRecord() throws IOException {
    var counts = new LinkedHashMap<String, Integer>();
    IndexSearcher searcher = searchers.acquire();
    try {
      Weight weight =
          searcher.createWeight(searcher.rewrite(MISSING), ScoreMode.COMPLETE_NO_SCORES, 1f);
      for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
        var scorer = weight.scorer(leaf);
        if (scorer == null) {
          continue;
        }
        SortedSetDocValues parents = DocValues.getSortedSet(leaf.reader(), IndexFields.PARENT_KEY);
        Bits live = leaf.reader().getLiveDocs();
        DocIdSetIterator docs = scorer.iterator();
        for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
          if (live != null && !live.get(doc)) {
            continue;
          }
          String key = IndexReads.first(parents, doc);
          if (key != null) {
            counts.merge(key, 1, Integer::sum);
          }
        }
      }
    } finally {
      searchers.release(searcher);
    }
    return counts;
  }

  @Override
  public StoredBlock load(String key, Function<String, float[]> elsewhere) throws IOException {
    IndexSearcher searcher = searchers.acquire();
    try {
      return StoredBlock.load(searcher, key, dimension, elsewhere);
    } finally {
      searchers.release(searcher);
    }
  }

  @Override
  public void rewrite(StoredBlock block) throws IOException {
    block.write(writer());
  }

  @Override
  public void refresh() throws IOException {
    searchers.maybeRefreshBlocking();
  }

  @Override
  public boolean hasUncommittedChanges() {
    return writer != null && writer.hasUncommittedChanges();
  }

  @Override
  public void commit(boolean complete, List<CollectionSync> synced) throws IOException {
    committer.commit(complete, synced);
  }
}
