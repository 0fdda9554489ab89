package dev.brain.retrieval;

import dev.brain.retrieval.Fusion.FusedRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One search of a {@link Retriever}: runs the requested lanes, fuses their rankings, applies the
 * vector floor, builds the rows of the top records and adds the related rows, timing each stage.
 */
final class SearchRun {
  private final Backend.View view;
  private final RowReads reads;
  private final VectorLane vector;
  private final QueryText query;
  private final SearchOptions options;
  private final long start;
  private final Map<String, Double> timings = new LinkedHashMap<>();

  SearchRun(
      Backend.View view,
      RowReads reads,
      VectorLane vector,
      QueryText query,
      SearchOptions options,
      long start) {
    this.view = view;
    this.reads = reads;
    this.vector = vector;
    this.query = query;
    this.options = options;
    this.start = start;
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
    var rows = new Rows(view, reads, query, options, vectorUsed);
    VectorFloor.Applied floor = VectorFloor.apply(fused, options.vectorFloor(), options.limit());
    List<FusedRecord> kept = floor.kept();
    List<EvidenceRow> ranked = rows.ranked(kept.subList(0, Math.min(options.limit(), kept.size())));
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
        floor.leftOut(),
        timings);
  }

  private LaneHits runLane(Lane lane, int depth) throws IOException {
    return switch (lane) {
      case BM25 -> view.bm25(query, options.filters(), depth);
      case VECTOR -> vector.search(view, query, options.filters(), depth, options.vectorSearch());
      case EXACT_TAG -> ExactTagLane.search(view, query, options.filters(), depth);
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
        RelatedLane.links(view, ranked, options.filters(), options.relatedLimit());
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

  private static double millisSince(long startNanos) {
    return Math.round((System.nanoTime() - startNanos) / 10_000.0) / 100.0;
  }
}
