package dev.brain.retrieval;

import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionStatus;
import dev.brain.index.CorpusRecord;
import dev.brain.index.IndexConfig;
import dev.brain.index.IndexFields;
import dev.brain.index.IndexInternals;
import dev.brain.index.IndexMetadata;
import dev.brain.index.IndexStats;
import dev.brain.index.RecordDetail;
import dev.brain.index.SyncListener;
import dev.brain.index.SyncReport;
import dev.brain.models.Embedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * The embedded backend: the lanes and the record store over a {@link BrainIndex} on this machine. A
 * view holds one near-real-time searcher; chunk handles are its doc ids.
 */
final class EmbeddedBackend implements Backend {

  private final BrainIndex index;
  private final Bm25Lane bm25;

  /** The coverage of the last reader counted: a searcher generation's counts do not change. */
  private volatile Counted coverage;

  private record Counted(IndexReader reader, Coverage coverage) {}

  /**
   * Records as rows read them (without their raw text), kept across searches: a few KiB each at
   * most (title, summary, tags), so a few MiB in all.
   */
  private final StoredDocCache<CorpusRecord> records = new StoredDocCache<>(RECORDS_KEPT);

  /** How many records {@link #records} keeps. */
  static final int RECORDS_KEPT = 4096;

  /** Chunks rows read (a chunk's text is at most a few KiB), kept across searches as records. */
  private final StoredDocCache<StoredChunk> chunks = new StoredDocCache<>(CHUNKS_KEPT);

  /** How many chunks {@link #chunks} keeps. */
  static final int CHUNKS_KEPT = 2048;

  EmbeddedBackend(BrainIndex index) {
    this(index, Bm25Lane.Params.DEFAULTS);
  }

  EmbeddedBackend(BrainIndex index, Bm25Lane.Params bm25Params) {
    this.index = index;
    this.bm25 = new Bm25Lane(IndexInternals.analyzer(index), bm25Params);
  }

  @Override
  public View view() throws IOException {
    return new LuceneView(IndexInternals.acquireSearcher(index));
  }

  @Override
  public Analyzer analyzer() {
    return IndexInternals.analyzer(index);
  }

  @Override
  public Embedder embedder() {
    return index.embedder();
  }

  @Override
  public IndexConfig config() {
    return index.config();
  }

  @Override
  public String location() {
    return index.location();
  }

  @Override
  public SyncReport syncCollections(List<CollectionRoot> collections, SyncListener listener)
      throws IOException {
    return index.syncCollections(collections, listener);
  }

  @Override
  public Optional<SyncReport> syncIfUnchanged(List<CollectionRoot> collections) throws IOException {
    return index.syncIfUnchanged(collections);
  }

  @Override
  public SyncReport syncChanged(CollectionRoot collection, Set<Path> changed, SyncListener listener)
      throws IOException {
    return index.syncChanged(collection, changed, listener);
  }

  @Override
  public SyncReport put(List<CorpusRecord> records, SyncListener listener) throws IOException {
    return index.put(records, listener);
  }

  @Override
  public long removeCollection(String name) throws IOException {
    return index.removeCollection(name);
  }

  @Override
  public List<CollectionStatus> collections() throws IOException {
    return index.collections();
  }

  @Override
  public IndexStats stats() throws IOException {
    return index.stats();
  }

  @Override
  public Optional<RecordDetail> get(String key) throws IOException {
    return index.get(key);
  }

  @Override
  public List<String> keysFor(String text) throws IOException {
    return index.keysFor(text);
  }

  @Override
  public IndexMetadata metadata() {
    return index.metadata();
  }

  @Override
  public boolean refresh() throws IOException {
    return index.refresh();
  }

  @Override
  public void close() throws IOException {
    index.close();
  }

  /** One searcher's answers; the filter and BM25 queries of the last search are kept. */
  private final class LuceneView implements View {
    private final IndexSearcher searcher;
    private SearchFilters lastFilters;
    private Query lastFilter;
    private QueryText lastText;
    private Query lastScoring;

    LuceneView(IndexSearcher searcher) {
      this.searcher = searcher;
    }

    private Query filter(SearchFilters filters) {
      if (filters != lastFilters) {
        lastFilter = Filters.query(filters, holdsBrainWritten());
        lastFilters = filters;
      }
      return lastFilter;
    }

    private boolean holdsBrainWritten() {
      try {
        return searcher.count(Filters.BRAIN_WRITTEN) > 0;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private Query scoring(QueryText query) {
      if (query != lastText) {
        lastScoring = bm25.scoringQuery(query);
        lastText = query;
      }
      return lastScoring;
    }

    @Override
    public List<String> sourceTypes() throws IOException {
      var types = new TreeSet<String>();
      Terms terms = MultiTerms.getTerms(searcher.getIndexReader(), IndexFields.SOURCE_TYPE);
      if (terms != null) {
        TermsEnum it = terms.iterator();
        for (BytesRef t = it.next(); t != null; t = it.next()) {
          types.add(t.utf8ToString());
        }
      }
      return List.copyOf(types);
    }

    @Override
    public LaneHits bm25(QueryText query, SearchFilters filters, int depth) throws IOException {
      return bm25.search(searcher, query, scoring(query), filter(filters), depth);
    }

    @Override
    public Coverage coverage() throws IOException {
      Counted counted = coverage;
      IndexReader reader = searcher.getIndexReader();
      if (counted == null || counted.reader() != reader) {
        counted =
            new Counted(
                reader,
                new Coverage(
                    searcher.count(Filters.CHUNKS), searcher.count(LuceneVectors.HAS_VECTOR)));
        coverage = counted;
      }
      return counted.coverage();
    }

    @Override
    public long lexicalMatches(QueryText query) throws IOException {
      return bm25.matches(searcher, query);
    }

    @Override
    public int lexicalRecords(QueryText query, SearchFilters filters, int depth)
        throws IOException {
      return bm25.records(searcher, query, filter(filters), depth);
    }

    @Override
    public LaneHits vector(
        float[] target, SearchFilters filters, int depth, VectorSearch mode, long vectors)
        throws IOException {
      return LuceneVectors.search(
          searcher,
          target,
          filter(filters),
          depth,
          mode,
          (int) Math.min(vectors, Integer.MAX_VALUE));
    }

    @Override
    public Map<String, List<String>> tagged(List<String> tags, SearchFilters filters, int limit)
        throws IOException {
      Query query =
          new BooleanQuery.Builder()
              .add(Filters.records(filter(filters)), Occur.FILTER)
              .add(Filters.anyOf(IndexFields.TAGS, tags), Occur.FILTER)
              .build();
      var out = new LinkedHashMap<String, List<String>>();
      for (ScoreDoc sd : searcher.search(query, limit).scoreDocs) {
        Document doc =
            searcher.storedFields().document(sd.doc, Set.of(IndexFields.KEY, IndexFields.TAGS));
        out.put(doc.get(IndexFields.KEY), Arrays.asList(doc.getValues(IndexFields.TAGS)));
      }
      return out;
    }

    @Override
    public List<String> existingTags(List<String> tags) throws IOException {
      var out = new ArrayList<String>(tags.size());
      for (String tag : tags) {
        if (searcher.count(new TermQuery(new Term(IndexFields.TAGS, tag))) > 0) {
          out.add(tag);
        }
      }
      return out;
    }

    @Override
    public Loaded load(List<String> keys, Collection<Integer> chunkDocs) throws IOException {
      return Stored.load(searcher, keys, chunkDocs, records, chunks);
    }

    @Override
    public Object contentKey(int chunk) {
      return chunk < 0 || chunk >= searcher.getIndexReader().maxDoc()
          ? null
          : StoredDocCache.key(searcher.getIndexReader(), chunk);
    }

    @Override
    public String recordText(String key) throws IOException {
      return Stored.recordText(searcher, key);
    }

    @Override
    public Map<Integer, Set<String>> textTerms(Collection<Integer> chunks, Set<String> terms)
        throws IOException {
      return Stored.textTerms(searcher.getIndexReader(), chunks, terms);
    }

    @Override
    public StoredChunk bestChunk(String key, QueryText query) throws IOException {
      return Stored.bestChunk(searcher, key, scoring(query));
    }

    @Override
    public List<CorpusRecord> backlinks(String key, SearchFilters filters) throws IOException {
      Query query =
          new BooleanQuery.Builder()
              .add(Filters.records(filter(filters)), Occur.FILTER)
              .add(new TermQuery(new Term(IndexFields.LINKS, key)), Occur.FILTER)
              .build();
      int count = searcher.count(query);
      if (count == 0) {
        return List.of();
      }
      var byKey = new TreeSet<CorpusRecord>((a, b) -> a.key().compareTo(b.key()));
      for (ScoreDoc sd : searcher.search(query, count).scoreDocs) {
        byKey.add(Stored.record(searcher.storedFields().document(sd.doc)));
      }
      return new ArrayList<>(byKey);
    }

    @Override
    public boolean passes(String key, SearchFilters filters) throws IOException {
      Query query =
          new BooleanQuery.Builder()
              .add(Filters.records(filter(filters)), Occur.FILTER)
              .add(new TermQuery(new Term(IndexFields.KEY, key)), Occur.FILTER)
              .build();
      return searcher.count(query) > 0;
    }

    @Override
    public void close() throws IOException {
      IndexInternals.releaseSearcher(index, searcher);
    }
  }
}
