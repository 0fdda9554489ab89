package dev.brain.retrieval;

import dev.brain.index.IndexFields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConjunctionUtils;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * The vector lane's search in the embedded index. Filters are applied before the nearest-neighbour
 * search (pre-filter), so a filtered search still finds {@code depth} chunks when that many pass
 * the filter. Small candidate sets are scanned exactly; larger ones go through the HNSW graph with
 * Lucene's filtered search.
 */
final class LuceneVectors {
  private LuceneVectors() {}

  static final Query HAS_VECTOR = new FieldExistsQuery(IndexFields.VECTOR);

  private static final BytesRef SUMMARY_ROLE = new BytesRef("summary");

  /** The nearest chunks to an embedded query; {@code vectors} is the number of chunk vectors. */
  static LaneHits search(
      IndexSearcher searcher,
      float[] target,
      Query filter,
      int depth,
      VectorSearch mode,
      int vectors)
      throws IOException {
    int candidates = filter == null ? vectors : searcher.count(withVector(filter));
    if (candidates == 0) {
      return LaneHits.used(Lane.VECTOR, List.of(), 0, "no chunk passes the filters");
    }
    boolean exact =
        mode == VectorSearch.EXACT
            || (mode == VectorSearch.AUTO && candidates <= SearchOptions.EXACT_SEARCH_MAX_CHUNKS);
    ScoreDoc[] top =
        exact
            ? exactSearch(searcher, target, filter, depth)
            : searcher.search(
                    new KnnFloatVectorQuery(IndexFields.VECTOR, target, depth, filter), depth)
                .scoreDocs;
    String how =
        (exact ? "exact scan of " : "hnsw search (k=" + depth + ") over ") + candidates + " chunks";
    weighSummaries(searcher, top);
    List<Hit> hits = ParentKeys.hits(searcher, top, LuceneVectors::cosine);
    return LaneHits.used(Lane.VECTOR, hits, candidates, how);
  }

  /** Scales the scores of summary chunks among {@code top} and sorts it again, best first. */
  private static void weighSummaries(IndexSearcher searcher, ScoreDoc[] top) throws IOException {
    // Doc values iterate forward: visit the hits in doc order, one iterator per leaf, and compare
    // role ordinals with the leaf's ordinal of "summary" instead of decoding each hit's role.
    ScoreDoc[] byDoc = top.clone();
    Arrays.sort(byDoc, Comparator.comparingInt((ScoreDoc sd) -> sd.doc));
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    boolean changed = false;
    LeafReaderContext leaf = null;
    SortedSetDocValues roles = null;
    long summary = -1;
    for (ScoreDoc sd : byDoc) {
      if (leaf == null || sd.doc >= leaf.docBase + leaf.reader().maxDoc()) {
        leaf = leaves.get(ReaderUtil.subIndex(sd.doc, leaves));
        roles = DocValues.getSortedSet(leaf.reader(), IndexFields.ROLE);
        summary = roles.lookupTerm(SUMMARY_ROLE);
      }
      if (summary >= 0 && roles.advanceExact(sd.doc - leaf.docBase) && roles.nextOrd() == summary) {
        sd.score = (float) ((1 + Backend.SUMMARY_WEIGHT * cosine(sd.score)) / 2);
        changed = true;
      }
    }
    if (changed) {
      Arrays.sort(
          top,
          Comparator.comparingDouble((ScoreDoc sd) -> -sd.score).thenComparingInt(sd -> sd.doc));
    }
  }

  /**
   * Lucene scores unit vectors compared by dot product as {@code (1 + cos) / 2}; rows report the
   * cosine, which readers know.
   */
  static double cosine(float luceneScore) {
    return 2.0 * luceneScore - 1.0;
  }

  private static Query withVector(Query filter) {
    return new BooleanQuery.Builder()
        .add(filter, Occur.FILTER)
        .add(HAS_VECTOR, Occur.FILTER)
        .build();
  }

  /**
   * Scores every live chunk that passes the filter against the query, keeping the best {@code
   * depth}: the ground truth HNSW recall is measured against, and cheap for small sets.
   */
  static ScoreDoc[] exactSearch(IndexSearcher searcher, float[] target, Query filter, int depth)
      throws IOException {
    Weight filterWeight =
        filter == null
            ? null
            : searcher.createWeight(searcher.rewrite(filter), ScoreMode.COMPLETE_NO_SCORES, 1f);
    // Min-heap on score (ties: larger doc id first out), so the head is the weakest kept hit.
    var heap =
        new PriorityQueue<ScoreDoc>(
            (a, b) ->
                a.score != b.score
                    ? Float.compare(a.score, b.score)
                    : Integer.compare(b.doc, a.doc));
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      scanLeaf(leaf, target, filterWeight, depth, heap);
    }
    var out = new ArrayList<ScoreDoc>(heap);
    out.sort(
        (a, b) ->
            a.score != b.score ? Float.compare(b.score, a.score) : Integer.compare(a.doc, b.doc));
    return out.toArray(ScoreDoc[]::new);
  }

  private static void scanLeaf(
      LeafReaderContext leaf,
      float[] target,
      Weight filterWeight,
      int depth,
      PriorityQueue<ScoreDoc> heap)
      throws IOException {
    FloatVectorValues values = leaf.reader().getFloatVectorValues(IndexFields.VECTOR);
    if (values == null) {
      return;
    }
    VectorScorer scorer = values.scorer(target);
    if (scorer == null) {
      return;
    }
    DocIdSetIterator docs = scorer.iterator();
    if (filterWeight != null) {
      Scorer filterScorer = filterWeight.scorer(leaf);
      if (filterScorer == null) {
        return;
      }
      docs = ConjunctionUtils.intersectIterators(List.of(docs, filterScorer.iterator()));
    }
    Bits live = leaf.reader().getLiveDocs();
    for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
      if (live != null && !live.get(doc)) {
        continue;
      }
      var hit = new ScoreDoc(leaf.docBase + doc, scorer.score());
      if (heap.size() < depth) {
        heap.add(hit);
      } else if (beats(hit, heap.peek())) {
        heap.poll();
        heap.add(hit);
      }
    }
  }

  private static boolean beats(ScoreDoc a, ScoreDoc b) {
    return a.score > b.score || (a.score == b.score && a.doc < b.doc);
  }
}
