package dev.brain.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field.Store;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * The documents of the {@link EmbeddingCache}: one per vector, its key ({@code model/dimension/
 * embed hash}), the raw little-endian floats, and since when no chunk uses it (0: in use).
 */
final class CacheEntries {

  static final String KEY = "key";
  private static final String VECTOR = "vector";
  private static final String ORPHANED_SINCE = "orphaned_since";

  private CacheEntries() {}

  /** The vector stored under {@code key}, or {@code null} when no live entry holds it. */
  static float[] find(IndexSearcher searcher, BytesRef key, int dimension) throws IOException {
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      Terms terms = leaf.reader().terms(KEY);
      if (terms == null) {
        continue;
      }
      TermsEnum termsEnum = terms.iterator();
      if (!termsEnum.seekExact(key)) {
        continue;
      }
      Bits live = leaf.reader().getLiveDocs();
      PostingsEnum docs = termsEnum.postings(null, PostingsEnum.NONE);
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        if (live == null || live.get(doc)) {
          return decode(
              leaf.reader().storedFields().document(doc).getBinaryValue(VECTOR), dimension);
        }
      }
    }
    return null;
  }

  /** The floats of a stored vector; a vector of another length is a corrupt cache. */
  private static float[] decode(BytesRef bytes, int dimension) throws IOException {
    if (bytes == null || bytes.length != dimension * Float.BYTES) {
      throw new IOException("a cached vector is not of dimension " + dimension);
    }
    var floats = new float[dimension];
    ByteBuffer.wrap(bytes.bytes, bytes.offset, bytes.length)
        .order(ByteOrder.LITTLE_ENDIAN)
        .asFloatBuffer()
        .get(floats);
    return floats;
  }

  /** The entry of {@code vector} under {@code key}: used by some chunk until a prune says not. */
  static Document document(String key, float[] vector) {
    var bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    bytes.asFloatBuffer().put(vector);
    var doc = new Document();
    doc.add(new KeywordField(KEY, key, Store.NO));
    doc.add(new StoredField(VECTOR, bytes.array()));
    doc.add(new NumericDocValuesField(ORPHANED_SINCE, 0));
    return doc;
  }

  /**
   * Keeps the entries of {@code prefix} whose hash is in {@code used}, marks the others orphaned
   * from {@code nowMillis} and deletes those orphaned for longer than {@link EmbeddingCache#GRACE}.
   * The caller commits.
   */
  static EmbeddingCache.Pruned prune(
      IndexSearcher searcher, IndexWriter writer, String prefix, Set<String> used, long nowMillis)
      throws IOException {
    long kept = 0;
    long orphaned = 0;
    long deleted = 0;
    long expired = nowMillis - EmbeddingCache.GRACE.toMillis();
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      LeafReader reader = leaf.reader();
      SortedSetDocValues keys = DocValues.getSortedSet(reader, KEY);
      NumericDocValues since = DocValues.getNumeric(reader, ORPHANED_SINCE);
      Bits live = reader.getLiveDocs();
      for (int doc = 0; doc < reader.maxDoc(); doc++) {
        if ((live != null && !live.get(doc)) || !keys.advanceExact(doc)) {
          continue;
        }
        String key = keys.lookupOrd(keys.nextOrd()).utf8ToString();
        long orphanedAt = since.advanceExact(doc) ? since.longValue() : 0;
        Term term = new Term(KEY, key);
        if (key.startsWith(prefix) && used.contains(key.substring(prefix.length()))) {
          kept++;
          if (orphanedAt != 0) {
            writer.updateNumericDocValue(term, ORPHANED_SINCE, 0);
          }
        } else if (orphanedAt == 0) {
          orphaned++;
          writer.updateNumericDocValue(term, ORPHANED_SINCE, nowMillis);
        } else if (orphanedAt < expired) {
          deleted++;
          writer.deleteDocuments(term);
        } else {
          orphaned++;
        }
      }
    }
    return new EmbeddingCache.Pruned(kept, orphaned, deleted);
  }
}
