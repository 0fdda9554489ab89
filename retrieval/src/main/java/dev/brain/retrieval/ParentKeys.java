package dev.brain.retrieval;

import dev.brain.index.IndexFields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;

/**
 * Turns chunk doc ids into hits keyed by their record, reading the parent key's doc values. A
 * segment's keys are decoded from its term dictionary once and kept while the segment lives (by its
 * core cache key): every search asks for a few hundred, and decoding one costs more than the rest
 * of its hit.
 */
final class ParentKeys {
  private ParentKeys() {}

  /** Decoded parent keys per segment core, by ordinal; entries go when the segment is closed. */
  private static final Map<IndexReader.CacheKey, String[]> DECODED =
      Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * The hits of {@code docs} in the given order, each with its record key.
   *
   * @param scores maps a Lucene score to the lane's raw score
   */
  static List<Hit> hits(IndexSearcher searcher, ScoreDoc[] docs, ScoreMapper scores)
      throws IOException {
    // Doc values iterate forward: read the keys in doc order, one iterator per leaf.
    Integer[] byDoc = new Integer[docs.length];
    for (int i = 0; i < docs.length; i++) {
      byDoc[i] = i;
    }
    Arrays.sort(byDoc, Comparator.comparingInt(i -> docs[i].doc));
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    String[] keys = new String[docs.length];
    LeafReaderContext leaf = null;
    SortedSetDocValues values = null;
    String[] decoded = null;
    for (int i : byDoc) {
      int doc = docs[i].doc;
      if (leaf == null || doc >= leaf.docBase + leaf.reader().maxDoc()) {
        leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
        values = DocValues.getSortedSet(leaf.reader(), IndexFields.PARENT_KEY);
        decoded = decoded(leaf, values);
      }
      if (values.advanceExact(doc - leaf.docBase)) {
        int ord = (int) values.nextOrd();
        String key = decoded == null ? null : decoded[ord];
        if (key == null) {
          key = values.lookupOrd(ord).utf8ToString();
          if (decoded != null) {
            decoded[ord] = key; // a racing writer stores the same string
          }
        }
        keys[i] = key;
      }
    }
    var hits = new ArrayList<Hit>(docs.length);
    for (int i = 0; i < docs.length; i++) {
      if (keys[i] != null) { // null: not a brain chunk; cannot happen with brain's schema
        hits.add(new Hit(keys[i], docs[i].doc, scores.raw(docs[i].score)));
      }
    }
    return hits;
  }

  /** The segment's decoded keys by ordinal, or null when the segment cannot be cached. */
  private static String[] decoded(LeafReaderContext leaf, SortedSetDocValues values) {
    IndexReader.CacheHelper helper = leaf.reader().getCoreCacheHelper();
    long count = values.getValueCount();
    if (helper == null || count == 0 || count > Integer.MAX_VALUE) {
      return null;
    }
    return DECODED.computeIfAbsent(helper.getKey(), k -> new String[(int) count]);
  }

  /** Maps a Lucene score to a lane's raw score. */
  @FunctionalInterface
  interface ScoreMapper {
    double raw(float luceneScore);
  }
}
