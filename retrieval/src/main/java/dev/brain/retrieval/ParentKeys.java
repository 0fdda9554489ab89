package dev.brain.retrieval;

import dev.brain.index.IndexFields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;

/** Turns chunk doc ids into hits keyed by their record, reading the parent key's doc values. */
final class ParentKeys {
  private ParentKeys() {}

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
    for (int i : byDoc) {
      int doc = docs[i].doc;
      if (leaf == null || doc >= leaf.docBase + leaf.reader().maxDoc()) {
        leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
        values = DocValues.getSortedSet(leaf.reader(), IndexFields.PARENT_KEY);
      }
      if (values.advanceExact(doc - leaf.docBase)) {
        keys[i] = values.lookupOrd(values.nextOrd()).utf8ToString();
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

  /** Maps a Lucene score to a lane's raw score. */
  @FunctionalInterface
  interface ScoreMapper {
    double raw(float luceneScore);
  }
}
