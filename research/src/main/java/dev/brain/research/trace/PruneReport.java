package dev.brain.research.trace;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What one retention pass did.
 *
 * @param examined complete trace directories looked at
 * @param kept how many of them remain
 * @param deleted how many were deleted
 * @param deletedRunIds their run ids, oldest first
 * @param staleTemporary leftover temporary directories of crashed runs (older than a day) deleted
 * @param budgetExhausted whether the pass stopped early because its time budget ran out
 */
public record PruneReport(
    int examined,
    int kept,
    int deleted,
    @JsonProperty("deleted_run_ids") List<String> deletedRunIds,
    @JsonProperty("stale_temporary") int staleTemporary,
    @JsonProperty("budget_exhausted") boolean budgetExhausted) {
  public PruneReport {
    deletedRunIds = List.copyOf(deletedRunIds);
  }
}
