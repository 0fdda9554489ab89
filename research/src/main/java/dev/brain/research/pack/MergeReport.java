package dev.brain.research.pack;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * How rows from outside the first retrieval pass were merged into a run's evidence: a focused
 * retry, a related expansion, or the user's pinned records.
 *
 * @param action {@value #FOCUSED_RETRY}, {@value #RELATED_EXPANSION}, {@value #PINNED} or {@value
 *     #EARLIER_TURN}
 * @param query the focused retry's search text, else {@code null}
 * @param lookup the key whose links an expansion followed, else {@code null}
 * @param preserved keys of the rows the pack already had, all kept
 * @param accepted keys of the rows added, in the order they were added
 * @param rejected candidate rows not added, each with why
 */
@JsonPropertyOrder({"action", "query", "lookup", "preserved", "accepted", "rejected"})
public record MergeReport(
    String action,
    @JsonInclude(JsonInclude.Include.NON_NULL) String query,
    @JsonInclude(JsonInclude.Include.NON_NULL) String lookup,
    List<String> preserved,
    List<String> accepted,
    List<Rejected> rejected) {

  /** {@link #action()} of a focused retry. */
  public static final String FOCUSED_RETRY = "focused_retry";

  /** {@link #action()} of a related expansion. */
  public static final String RELATED_EXPANSION = "related_expansion";

  /** {@link #action()} of pinned evidence. */
  public static final String PINNED = "pinned";

  /** {@link #action()} of an earlier turn's evidence entering a follow-up as candidates. */
  public static final String EARLIER_TURN = "earlier_turn";

  public MergeReport {
    preserved = List.copyOf(preserved);
    accepted = List.copyOf(accepted);
    rejected = List.copyOf(rejected);
  }

  /**
   * A candidate row that was not added.
   *
   * @param sourceKey its key
   * @param reason why not
   */
  public record Rejected(@JsonProperty("source_key") String sourceKey, String reason) {}
}
