package dev.brain.retrieval;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Why a row ranks where it does.
 *
 * @param lanes every lane that found the record, in lane order ({@code bm25}, {@code vector},
 *     {@code exact_tag}, {@code related})
 * @param fusedScore the sum of the lanes' contributions; rows are sorted by it (0 for related rows)
 */
public record RowRetrieval(List<LaneScore> lanes, @JsonProperty("fused_score") double fusedScore) {
  public RowRetrieval {
    lanes = List.copyOf(lanes);
  }

  /** The score of {@code lane}, or {@code null} if that lane did not find the record. */
  public LaneScore lane(Lane lane) {
    return lanes.stream().filter(s -> s.lane() == lane).findFirst().orElse(null);
  }
}
