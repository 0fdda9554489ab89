package dev.brain.retrieval;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What one lane did in a search.
 *
 * @param lane the lane (JSON {@code name})
 * @param status whether it ran, and if not why
 * @param hits hits it returned (chunks for bm25 and vector, records for exact_tag and related)
 * @param records distinct records among the hits
 * @param totalMatches chunks (records for exact_tag) matching the lane's query; for bm25 a lower
 *     bound once it passes 1,000; for vector the candidate chunks it searched
 * @param tookMs wall time of the lane in milliseconds (for vector, including the query embedding)
 * @param detail a short human-readable note (search strategy, why a lane could not run), or {@code
 *     null}
 */
public record LaneReport(
    @JsonProperty("name") Lane lane,
    LaneStatus status,
    int hits,
    int records,
    @JsonProperty("total_matches") long totalMatches,
    @JsonProperty("took_ms") double tookMs,
    String detail) {

  static LaneReport disabled(Lane lane) {
    return new LaneReport(lane, LaneStatus.DISABLED, 0, 0, 0, 0, "switched off for this request");
  }
}
