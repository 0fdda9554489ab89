package dev.brain.index;

import dev.brain.chunking.Chunk;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.Bits;

/** Reads records, chunks and per-record sync state back from a searcher. */
final class IndexReads {
  private IndexReads() {}

  /**
   * What sync needs to know about a stored record.
   *
   * @param contentHash the record's content hash
   * @param chunking the chunking signature its chunks were made with
   * @param origin the file it came from, or {@code null}
   * @param collection the collection it belongs to
   */
  record RecordState(String contentHash, String chunking, String origin, String collection) {}

  static Query recordsQuery() {
    return new TermQuery(new Term(IndexFields.DOC_TYPE, IndexFields.RECORD));
  }

  static Query chunksQuery() {
    return new TermQuery(new Term(IndexFields.DOC_TYPE, IndexFields.CHUNK));
  }

  /** Chunks that have their vector. */
  static Query embeddedChunksQuery() {
    return new BooleanQuery.Builder()
        .add(chunksQuery(), Occur.FILTER)
        .add(new org.apache.lucene.search.FieldExistsQuery(IndexFields.VECTOR), Occur.FILTER)
        .build();
  }

  /** {@code query} within the collection {@code name}. */
  static Query inCollection(String name, Query query) {
    return new BooleanQuery.Builder()
        .add(query, Occur.FILTER)
        .add(new TermQuery(new Term(IndexFields.COLLECTION, name)), Occur.FILTER)
        .build();
  }

  /** The sync state of every live record, by key, read from doc values only. */
  static Map<String, RecordState> recordStates(IndexSearcher searcher) throws IOException {
    var states = new HashMap<String, RecordState>();
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      LeafReader reader = leaf.reader();
      Bits live = reader.getLiveDocs();
      SortedSetDocValues keys = DocValues.getSortedSet(reader, IndexFields.KEY);
      SortedSetDocValues hashes = DocValues.getSortedSet(reader, IndexFields.CONTENT_HASH);
      SortedSetDocValues chunkings = DocValues.getSortedSet(reader, IndexFields.CHUNKING);
      SortedSetDocValues origins = DocValues.getSortedSet(reader, IndexFields.ORIGIN);
      SortedSetDocValues collections = DocValues.getSortedSet(reader, IndexFields.COLLECTION);
      for (int doc = keys.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = keys.nextDoc()) {
        if (live != null && !live.get(doc)) {
          continue;
        }
        states.put(
            first(keys, doc),
            new RecordState(
                first(hashes, doc),
                first(chunkings, doc),
                first(origins, doc),
                first(collections, doc)));
      }
    }
    return states;
  }

  /** Names of the collections that live records belong to. */
  static Set<String> collectionNames(IndexSearcher searcher) throws IOException {
    var names = new java.util.TreeSet<String>();
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      SortedSetDocValues values = DocValues.getSortedSet(leaf.reader(), IndexFields.COLLECTION);
      for (long ord = 0; ord < values.getValueCount(); ord++) {
        names.add(values.lookupOrd(ord).utf8ToString());
      }
    }
    return names;
  }

  /** The first value of a keyword field of {@code doc}, or {@code null}; {@code doc} ascending. */
  static String first(SortedSetDocValues values, int doc) throws IOException {
    if (!values.advanceExact(doc)) {
      return null;
    }
    return values.lookupOrd(values.nextOrd()).utf8ToString();
  }

  /** The record with this key, its chunks and backlinks. */
  static Optional<RecordDetail> get(IndexSearcher searcher, String key) throws IOException {
    var byKey =
        new BooleanQuery.Builder()
            .add(recordsQuery(), Occur.FILTER)
            .add(new TermQuery(new Term(IndexFields.KEY, key)), Occur.FILTER)
            .build();
    ScoreDoc[] hits = searcher.search(byKey, 1).scoreDocs;
    if (hits.length == 0) {
      return Optional.empty();
    }
    StoredFields stored = searcher.storedFields();
    CorpusRecord record = Documents.toRecord(stored.document(hits[0].doc));
    var links = new LinkResolver(searcher);
    return Optional.of(
        new RecordDetail(
            record,
            chunks(searcher, key),
            backlinks(searcher, key, links.linksResolvingTo(record)),
            links.links(record)));
  }

  /** The keys a text that is not a key may mean (a path, a title, a URL, a key of another kind). */
  static List<String> keysFor(IndexSearcher searcher, String text) throws IOException {
    return new LinkResolver(searcher).keysFor(text);
  }

  private static List<Chunk> chunks(IndexSearcher searcher, String key) throws IOException {
    var query =
        new BooleanQuery.Builder()
            .add(chunksQuery(), Occur.FILTER)
            .add(new TermQuery(Documents.parentTerm(key)), Occur.FILTER)
            .build();
    StoredFields stored = searcher.storedFields();
    var chunks = new ArrayList<Chunk>();
    for (ScoreDoc hit : searchAll(searcher, query)) {
      chunks.add(Documents.toChunk(stored.document(hit.doc)));
    }
    chunks.sort(Comparator.comparingInt(Chunk::ordinal));
    return chunks;
  }

  /**
   * Records linking to {@code key}, or to one of {@code alsoReaching} (links that resolve to it).
   */
  private static List<String> backlinks(
      IndexSearcher searcher, String key, Set<String> alsoReaching) throws IOException {
    var linking = new BooleanQuery.Builder().setMinimumNumberShouldMatch(1);
    linking.add(new TermQuery(new Term(IndexFields.LINKS, key)), Occur.SHOULD);
    for (String link : alsoReaching) {
      linking.add(new TermQuery(new Term(IndexFields.LINKS, link)), Occur.SHOULD);
    }
    var query =
        new BooleanQuery.Builder()
            .add(recordsQuery(), Occur.FILTER)
            .add(linking.build(), Occur.FILTER)
            .build();
    StoredFields stored = searcher.storedFields();
    var keys = new ArrayList<String>();
    for (ScoreDoc hit : searchAll(searcher, query)) {
      String from = stored.document(hit.doc, Set.of(IndexFields.KEY)).get(IndexFields.KEY);
      if (!from.equals(key)) {
        keys.add(from);
      }
    }
    keys.sort(Comparator.naturalOrder());
    return keys;
  }

  private static ScoreDoc[] searchAll(IndexSearcher searcher, Query query) throws IOException {
    int count = searcher.count(query);
    return count == 0 ? new ScoreDoc[0] : searcher.search(query, count).scoreDocs;
  }
}
