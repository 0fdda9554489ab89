package dev.brain.retrieval;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexFields;
import dev.brain.index.IndexInternals;
import dev.brain.index.RecordDetail;
import dev.brain.retrieval.Fusion.FusedRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.util.BytesRef;

/**
 * Searches a {@link BrainIndex}: the retrieval module's entry point. Runs the requested lanes
 * (BM25, vector, exact tag) over the same filters, fuses their rankings per record with lane
 * provenance, consolidates each record's best chunks into one evidence row with a query-centred
 * excerpt, and optionally adds the link neighbours of the top rows. Read-only and thread-safe; one
 * retriever per index is enough.
 *
 * <pre>{@code
 * var retriever = new Retriever(index);
 * SearchResult result = retriever.search("espresso grind size", SearchOptions.defaults());
 * }</pre>
 */
public final class Retriever {

  private final BrainIndex index;
  private final Bm25Lane bm25;
  private final VectorLane vector;

  /** A retriever over {@code index}; the embedding model is loaded on the first vector search. */
  public Retriever(BrainIndex index) {
    this(index, Bm25Lane.Params.DEFAULTS);
  }

  /** A retriever with other BM25 tuning, for measurements. */
  Retriever(BrainIndex index, Bm25Lane.Params bm25Params) {
    this.index = Objects.requireNonNull(index, "index");
    this.bm25 = new Bm25Lane(IndexInternals.analyzer(index), bm25Params);
    this.vector = new VectorLane(index::embedder);
  }

  /**
   * Searches the index.
   *
   * @param query the user's words; must contain a non-blank character
   * @param options lanes, limit, filters, fusion and sizes
   * @return ranked evidence rows, then related rows, with lane reports and timings
   * @throws InvalidSearchException if the query is blank or a filter names an unknown source type
   * @throws IOException if the index cannot be read
   */
  public SearchResult search(String query, SearchOptions options) throws IOException {
    Objects.requireNonNull(options, "options");
    if (query == null || query.isBlank()) {
      throw new InvalidSearchException("query", "the query is empty; give words to search for");
    }
    long start = System.nanoTime();
    IndexSearcher searcher = IndexInternals.acquireSearcher(index);
    try {
      checkSourceTypes(searcher, options.filters());
      return new Run(
              searcher,
              QueryText.parse(query.strip(), IndexInternals.analyzer(index)),
              options,
              start)
          .execute();
    } finally {
      IndexInternals.releaseSearcher(index, searcher);
    }
  }

  /**
   * The source types a filter may name: the {@link SearchFilters#KNOWN_SOURCE_TYPES known ones} and
   * any present in the index, sorted.
   */
  public List<String> sourceTypes() throws IOException {
    IndexSearcher searcher = IndexInternals.acquireSearcher(index);
    try {
      return sourceTypes(searcher);
    } finally {
      IndexInternals.releaseSearcher(index, searcher);
    }
  }

  /**
   * The record with this key, with its chunks and backlinks, or empty when the index holds none:
   * what research reads to window a whole record, inspect a row or expand its links.
   *
   * @throws IOException if the index cannot be read
   */
  public Optional<RecordDetail> get(String key) throws IOException {
    return index.get(key);
  }

  /**
   * How close in meaning each text is to {@code query} by the index's embedding model (the query
   * embedded as a query, the texts as passages): one cosine in [-1, 1] per text, in input order.
   * Research ranks the sentences it quotes with it. Loads the model on first use (about a second).
   *
   * @throws IllegalStateException if the embedding model cannot be loaded
   */
  public double[] similarities(String query, List<String> texts) {
    var out = new double[texts.size()];
    if (texts.isEmpty()) {
      return out;
    }
    var embedder = index.embedder();
    float[] q = embedder.embedQuery(query);
    List<float[]> vectors = embedder.embedPassages(texts);
    for (int i = 0; i < out.length; i++) {
      float[] v = vectors.get(i);
      double dot = 0;
      for (int d = 0; d < q.length; d++) {
        dot += q[d] * v[d];
      }
      out[i] = dot; // both vectors are L2-normalized
    }
    return out;
  }

  /**
   * The chunks in the index: what research weighs a concept's match count against.
   *
   * @throws IOException if the index cannot be read
   */
  public long chunkCount() throws IOException {
    return index.stats().chunks();
  }

  private static List<String> sourceTypes(IndexSearcher searcher) throws IOException {
    var types = new TreeSet<>(SearchFilters.KNOWN_SOURCE_TYPES);
    Terms terms = MultiTerms.getTerms(searcher.getIndexReader(), IndexFields.SOURCE_TYPE);
    if (terms != null) {
      TermsEnum it = terms.iterator();
      for (BytesRef t = it.next(); t != null; t = it.next()) {
        types.add(t.utf8ToString());
      }
    }
    return List.copyOf(types);
  }

  private static void checkSourceTypes(IndexSearcher searcher, SearchFilters filters)
      throws IOException {
    if (filters.sourceTypes().isEmpty()) {
      return;
    }
    List<String> allowed = sourceTypes(searcher);
    for (String type : filters.sourceTypes()) {
      if (!allowed.contains(type)) {
        throw new InvalidSearchException(
            "source_types", "unknown source type '" + type + "'", allowed);
      }
    }
  }

  /** One search: lanes, fusion, rows, related rows. */
  private final class Run {
    private final IndexSearcher searcher;
    private final QueryText query;
    private final SearchOptions options;
    private final long start;
    private final Query filter;
    private final Query bm25Scoring; // built once: the BM25 lane and the rows both use it
    private final Map<String, Double> timings = new LinkedHashMap<>();

    Run(IndexSearcher searcher, QueryText query, SearchOptions options, long start) {
      this.searcher = searcher;
      this.query = query;
      this.options = options;
      this.start = start;
      this.filter = Filters.query(options.filters());
      this.bm25Scoring = bm25.scoringQuery(query);
    }

    SearchResult execute() throws IOException {
      int depth = options.effectiveDepth();
      var reports = new EnumMap<Lane, LaneReport>(Lane.class);
      var fusedLanes = new EnumMap<Lane, List<Hit>>(Lane.class);
      for (Lane lane : List.of(Lane.BM25, Lane.VECTOR, Lane.EXACT_TAG)) {
        if (!options.uses(lane)) {
          reports.put(lane, LaneReport.disabled(lane));
          continue;
        }
        long t0 = System.nanoTime();
        LaneHits hits = runLane(lane, depth);
        double took = millisSince(t0);
        timings.put(lane.wireName(), took);
        reports.put(lane, hits.report(took));
        if (hits.status() == LaneStatus.USED) {
          fusedLanes.put(lane, hits.hits());
        }
      }

      long t1 = System.nanoTime();
      List<FusedRecord> fused =
          Fusion.fuse(fusedLanes, options.fusion(), options.rrfK(), options.weights());
      timings.put("fusion", millisSince(t1));

      long t2 = System.nanoTime();
      boolean vectorUsed = reports.get(Lane.VECTOR).status() == LaneStatus.USED;
      var rows =
          new Rows(
              searcher, IndexInternals.analyzer(index), query, options, bm25Scoring, vectorUsed);
      List<EvidenceRow> ranked =
          rows.ranked(fused.subList(0, Math.min(options.limit(), fused.size())));
      timings.put("rows", millisSince(t2));

      List<EvidenceRow> all = new ArrayList<>(ranked);
      reports.put(Lane.RELATED, related(rows, ranked, all));
      timings.put("total", millisSince(start));
      return new SearchResult(
          query.text(),
          List.copyOf(query.terms().values()),
          query.tagAliases(),
          all,
          List.copyOf(reports.values()),
          fused.size(),
          timings);
    }

    private LaneHits runLane(Lane lane, int depth) throws IOException {
      return switch (lane) {
        case BM25 -> bm25.search(searcher, query, bm25Scoring, filter, depth);
        case VECTOR -> vector.search(searcher, query, filter, depth, options.vectorSearch());
        case EXACT_TAG -> ExactTagLane.search(searcher, query, filter, depth);
        case RELATED -> throw new IllegalArgumentException("related is not a fused lane");
      };
    }

    /** Adds related rows to {@code all}; returns the related lane's report. */
    private LaneReport related(Rows rows, List<EvidenceRow> ranked, List<EvidenceRow> all)
        throws IOException {
      if (!options.uses(Lane.RELATED)) {
        return LaneReport.disabled(Lane.RELATED);
      }
      long t0 = System.nanoTime();
      List<RelatedLane.Link> links =
          RelatedLane.links(searcher, ranked, filter, options.relatedLimit());
      int laneRank = 0;
      for (RelatedLane.Link link : links) {
        all.add(
            rows.related(
                all.size() + 1,
                ++laneRank,
                link.record(),
                link.relatedTo(),
                link.relationship(),
                link.seedScore()));
      }
      double took = millisSince(t0);
      timings.put(Lane.RELATED.wireName(), took);
      return new LaneReport(
          Lane.RELATED,
          LaneStatus.USED,
          links.size(),
          links.size(),
          links.size(),
          took,
          "links and backlinks of the top " + Math.min(RelatedLane.SEEDS, ranked.size()) + " rows");
    }
  }

  private static double millisSince(long startNanos) {
    return Math.round((System.nanoTime() - startNanos) / 10_000.0) / 100.0;
  }
}
