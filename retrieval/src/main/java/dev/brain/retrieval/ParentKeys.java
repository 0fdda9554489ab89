package dev.brain.retrieval;

import dev.brain.index.IndexFields;
import java.io.IOException;
import java.util.ArrayList;
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
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    var hits = new ArrayList<Hit>(docs.length);
    for (ScoreDoc sd : docs) {
      LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(sd.doc, leaves));
      // A fresh doc values instance per hit: hits come in score order, not doc order.
      SortedSetDocValues keys = DocValues.getSortedSet(leaf.reader(), IndexFields.PARENT_KEY);
      if (!keys.advanceExact(sd.doc - leaf.docBase)) {
        continue; // not a brain chunk; cannot happen with brain's schema
      }
      String key = keys.lookupOrd(keys.nextOrd()).utf8ToString();
      hits.add(new Hit(key, sd.doc, scores.raw(sd.score)));
    }
    return hits;
  }

  /** Maps a Lucene score to a lane's raw score. */
  @FunctionalInterface
  interface ScoreMapper {
    double raw(float luceneScore);
  }
}
