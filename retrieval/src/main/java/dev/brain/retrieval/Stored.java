package dev.brain.retrieval;

import static dev.brain.index.IndexFields.*;

import dev.brain.index.CorpusRecord;
import dev.brain.index.IndexInternals;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DocumentStoredFieldVisitor;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.SortedNumericSortField;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/** Reads record and chunk documents back from the embedded index's stored fields. */
final class Stored {
  private Stored() {}

  private static final Set<String> CHUNK_FIELDS =
      Set.of(CHUNK_ID, PARENT_KEY, ORDINAL, ROLE, HEADING_PATH, START_CHAR, END_CHAR, TEXT);

  /**
   * The live records with these keys, without their raw text (empty; {@link #recordText}), and the
   * chunk documents {@code chunkDocs}, read in ascending doc order through one {@link
   * StoredFields}: a record's chunks and the record itself are neighbours in one compressed block,
   * which is then decompressed once rather than per document. The records read before are taken
   * from {@code cache} (and the ones read now kept there), the chunks read before from {@code
   * chunkCache}.
   */
  static Backend.Loaded load(
      IndexSearcher searcher,
      List<String> keys,
      Collection<Integer> chunkDocs,
      StoredDocCache<CorpusRecord> cache,
      StoredDocCache<StoredChunk> chunkCache)
      throws IOException {
    var records = new HashMap<String, CorpusRecord>();
    var chunks = new HashMap<Integer, StoredChunk>();
    var recordDocs = new HashSet<Integer>(recordDocs(searcher.getIndexReader(), keys));
    var docs = new TreeSet<Integer>(recordDocs);
    docs.addAll(chunkDocs);
    StoredFields fields = searcher.storedFields();
    for (int doc : docs) {
      Object key = StoredDocCache.key(searcher.getIndexReader(), doc);
      if (recordDocs.contains(doc)) {
        CorpusRecord r = cache.get(key, () -> withoutRawText(fields, doc));
        records.put(r.key(), r);
      } else {
        StoredChunk c = chunkCache.get(key, () -> chunk(fields, doc));
        // Kept by segment, where its doc id may since have moved: the handle is this view's.
        chunks.put(doc, c.doc() == doc ? c : c.withDoc(doc));
      }
    }
    return new Backend.Loaded(records, chunks);
  }

  /**
   * The live record documents with these keys, the first {@code keys.size()} in doc order: what a
   * search for record documents with any of the keys returns (its hits all score alike), read from
   * the key's term dictionary without building and running a query.
   */
  static List<Integer> recordDocs(IndexReader reader, List<String> keys) throws IOException {
    var docs = new ArrayList<Integer>();
    if (keys.isEmpty()) {
      return docs;
    }
    var sorted = new TreeSet<BytesRef>();
    keys.forEach(k -> sorted.add(new BytesRef(k)));
    BytesRef recordType = new BytesRef(RECORD);
    for (LeafReaderContext leaf : reader.leaves()) {
      Terms keyTerms = leaf.reader().terms(KEY);
      Terms typeTerms = leaf.reader().terms(DOC_TYPE);
      if (keyTerms == null || typeTerms == null) {
        continue;
      }
      TermsEnum typeEnum = typeTerms.iterator();
      if (!typeEnum.seekExact(recordType)) {
        continue;
      }
      var matching = new ArrayList<Integer>();
      TermsEnum keyEnum = keyTerms.iterator();
      PostingsEnum postings = null;
      Bits live = leaf.reader().getLiveDocs();
      for (BytesRef key : sorted) {
        if (!keyEnum.seekExact(key)) {
          continue;
        }
        postings = keyEnum.postings(postings, PostingsEnum.NONE);
        for (int d = postings.nextDoc();
            d != DocIdSetIterator.NO_MORE_DOCS;
            d = postings.nextDoc()) {
          if (live == null || live.get(d)) {
            matching.add(d);
          }
        }
      }
      matching.sort(null);
      PostingsEnum records = typeEnum.postings(null, PostingsEnum.NONE);
      int at = -1;
      for (int d : matching) {
        if (at < d) {
          at = records.advance(d);
        }
        if (at == d) {
          docs.add(leaf.docBase + d);
        }
      }
    }
    docs.sort(null);
    return docs.size() > keys.size() ? docs.subList(0, keys.size()) : docs;
  }

  /**
   * Which of {@code terms} each chunk document's text field holds, by doc id: one term dictionary
   * seek per term and segment, then the term's postings advanced through the chunks in doc order.
   */
  static Map<Integer, Set<String>> textTerms(
      IndexReader reader, Collection<Integer> chunkDocs, Set<String> terms) throws IOException {
    int[] docs =
        chunkDocs.stream()
            .mapToInt(Integer::intValue)
            .filter(d -> d >= 0 && d < reader.maxDoc())
            .distinct()
            .sorted()
            .toArray();
    var out = new HashMap<Integer, Set<String>>();
    for (int doc : docs) {
      out.put(doc, new HashSet<>());
    }
    List<LeafReaderContext> leaves = reader.leaves();
    for (String term : terms) {
      var bytes = new BytesRef(term);
      int i = 0;
      while (i < docs.length) {
        LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(docs[i], leaves));
        int leafEnd = leaf.docBase + leaf.reader().maxDoc();
        PostingsEnum postings = postings(leaf, bytes);
        for (; i < docs.length && docs[i] < leafEnd; i++) {
          int target = docs[i] - leaf.docBase;
          if (postings != null
              && (postings.docID() < target ? postings.advance(target) : postings.docID())
                  == target) {
            out.get(docs[i]).add(term);
          }
        }
      }
    }
    return out;
  }

  /** The postings of {@code term} in the leaf's text field, or null if it has none. */
  private static PostingsEnum postings(LeafReaderContext leaf, BytesRef term) throws IOException {
    Terms text = leaf.reader().terms(TEXT);
    if (text == null) {
      return null;
    }
    TermsEnum it = text.iterator();
    return it.seekExact(term) ? it.postings(null, PostingsEnum.NONE) : null;
  }

  /**
   * The record of a record document with its raw text left out (empty): a row shows a chunk of it,
   * and decoding a long text was most of what reading a row's record cost. {@link #recordText}
   * reads it when a row needs it.
   */
  private static CorpusRecord withoutRawText(StoredFields fields, int doc) throws IOException {
    var visitor =
        new DocumentStoredFieldVisitor() {
          @Override
          public Status needsField(FieldInfo field) {
            return RAW_TEXT.equals(field.name) ? Status.NO : Status.YES;
          }
        };
    fields.document(doc, visitor);
    Document document = visitor.getDocument();
    document.add(new StoredField(RAW_TEXT, ""));
    return record(document);
  }

  /** The raw text of the live record {@code key}, or {@code null} if there is no such record. */
  static String recordText(IndexSearcher searcher, String key) throws IOException {
    List<Integer> docs = recordDocs(searcher.getIndexReader(), List.of(key));
    if (docs.isEmpty()) {
      return null;
    }
    return searcher.storedFields().document(docs.get(0), Set.of(RAW_TEXT)).get(RAW_TEXT);
  }

  /** The record of a record document read whole, decoded by the index ({@link IndexInternals}). */
  static CorpusRecord record(Document doc) {
    return IndexInternals.record(doc);
  }

  static StoredChunk chunk(IndexSearcher searcher, int doc) throws IOException {
    return chunk(searcher.storedFields(), doc);
  }

  private static StoredChunk chunk(StoredFields fields, int doc) throws IOException {
    Document d = fields.document(doc, CHUNK_FIELDS);
    return new StoredChunk(
        doc,
        d.get(CHUNK_ID),
        d.get(PARENT_KEY),
        intValue(d, ORDINAL),
        d.get(ROLE),
        Arrays.asList(d.getValues(HEADING_PATH)),
        intValue(d, START_CHAR),
        intValue(d, END_CHAR),
        d.get(TEXT));
  }

  /**
   * The record's best chunk for a scoring query (its first chunk when the query is null or matches
   * none of its chunks), or {@code null} if the record has no chunks; never a chunk of a research
   * section brain wrote.
   */
  static StoredChunk bestChunk(IndexSearcher searcher, String key, Query scoring)
      throws IOException {
    Query ofRecord =
        new BooleanQuery.Builder()
            .add(Filters.CHUNKS, Occur.FILTER)
            .add(KeywordField.newExactQuery(PARENT_KEY, key), Occur.FILTER)
            .add(Filters.BRAIN_WRITTEN, Occur.MUST_NOT) // brain's own section never stands in
            .build();
    if (scoring != null) {
      Query scored =
          new BooleanQuery.Builder().add(scoring, Occur.MUST).add(ofRecord, Occur.FILTER).build();
      ScoreDoc[] hits = searcher.search(scored, 1).scoreDocs;
      if (hits.length > 0) {
        return chunk(searcher, hits[0].doc);
      }
    }
    Sort byOrdinal = new Sort(new SortedNumericSortField(ORDINAL, SortField.Type.INT));
    ScoreDoc[] first = searcher.search(ofRecord, 1, byOrdinal).scoreDocs;
    return first.length == 0 ? null : chunk(searcher, first[0].doc);
  }

  private static int intValue(Document doc, String field) {
    IndexableField f = doc.getField(field);
    return f == null ? 0 : f.numericValue().intValue();
  }
}
