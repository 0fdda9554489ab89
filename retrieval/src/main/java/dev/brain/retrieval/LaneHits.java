package dev.brain.retrieval;

import java.util.HashSet;
import java.util.List;

/**
 * What one lane returned: hits in rank order, best first.
 *
 * @param lane the lane
 * @param status whether it ran
 * @param hits ranked hits (empty unless {@link LaneStatus#USED})
 * @param totalMatches how many chunks (records) matched the lane's query
 * @param detail a short note for the lane report, or {@code null}
 */
public record LaneHits(
    Lane lane, LaneStatus status, List<Hit> hits, long totalMatches, String detail) {

  /** Copies the hits. */
  public LaneHits {
    hits = List.copyOf(hits);
  }

  /** A lane that ran. */
  public static LaneHits used(Lane lane, List<Hit> hits, long totalMatches, String detail) {
    return new LaneHits(lane, LaneStatus.USED, hits, totalMatches, detail);
  }

  /** A lane that could not run, with the reason. */
  public static LaneHits unavailable(Lane lane, LaneStatus status, String detail) {
    return new LaneHits(lane, status, List.of(), 0, detail);
  }

  int distinctRecords() {
    var keys = new HashSet<String>();
    hits.forEach(h -> keys.add(h.key()));
    return keys.size();
  }

  LaneReport report(double tookMs) {
    return new LaneReport(
        lane, status, hits.size(), distinctRecords(), totalMatches, tookMs, detail);
  }
}
