package dev.brain.retrieval;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer to one {@link Retriever#search search}.
 *
 * @param query the query as given
 * @param queryTerms the query's terms after analysis (stop words dropped), as typed, lower-cased
 * @param tagAliases tag forms of the query's word n-grams that some record carries: the tags the
 *     exact-tag lane looked for
 * @param rows ranked evidence rows (at most {@code limit}), then related rows
 * @param lanes one report per lane, in lane order, including switched-off lanes
 * @param candidates distinct records found by the fused lanes before the limit was applied
 * @param weakRowsLeftOut vector-only rows below the relevance floor ({@link
 *     SearchOptions#vectorFloor()}) that would have been among the first {@code limit} rows: left
 *     out, and counted so a surface can say so
 * @param timingsMs wall times in milliseconds: one entry per lane that ran, {@code fusion}, {@code
 *     rows} (excerpts and consolidation) and {@code total}
 */
public record SearchResult(
    String query,
    @JsonProperty("query_terms") List<String> queryTerms,
    @JsonProperty("tag_aliases") List<String> tagAliases,
    List<EvidenceRow> rows,
    List<LaneReport> lanes,
    int candidates,
    @JsonProperty("weak_rows_left_out") int weakRowsLeftOut,
    @JsonProperty("timings_ms") Map<String, Double> timingsMs) {

  public SearchResult {
    queryTerms = List.copyOf(queryTerms);
    tagAliases = List.copyOf(tagAliases);
    rows = List.copyOf(rows);
    lanes = List.copyOf(lanes);
    timingsMs = Collections.unmodifiableMap(new LinkedHashMap<>(timingsMs));
  }

  /** The report of one lane. */
  public LaneReport lane(Lane lane) {
    return lanes.stream().filter(r -> r.lane() == lane).findFirst().orElseThrow();
  }

  /** The status of one lane. */
  public LaneStatus status(Lane lane) {
    return lane(lane).status();
  }
}
