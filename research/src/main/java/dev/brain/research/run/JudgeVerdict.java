package dev.brain.research.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.brain.retrieval.WireName;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The judge's decision on a run's evidence: whether it is enough, why, what is missing, which top
 * rows are weak, and the one retrieval action that could help.
 *
 * @param verdict {@code enough_evidence}, {@code weak_evidence} or {@code no_evidence}
 * @param reason one plain sentence
 * @param missingConcepts keys of required concepts no top row matches
 * @param weakRows top rows that are partial, tag-only, semantic-only or miss a required concept
 * @param retryAction what to do next: {@code none}, {@code focused_retry} or {@code
 *     related_expansion}
 * @param retryQuery the focused retry's search text (missing concepts plus anchors), or {@code
 *     null}
 * @param expansionLookup the key of the row whose links and backlinks an expansion follows, or
 *     {@code null}
 */
@JsonPropertyOrder({
  "verdict",
  "reason",
  "missing_concepts",
  "weak_rows",
  "retry_action",
  "retry_query",
  "expansion_lookup"
})
public record JudgeVerdict(
    Verdict verdict,
    String reason,
    @JsonProperty("missing_concepts") List<String> missingConcepts,
    @JsonProperty("weak_rows") List<WeakRow> weakRows,
    @JsonProperty("retry_action") RetryAction retryAction,
    @JsonProperty("retry_query") @JsonInclude(JsonInclude.Include.NON_NULL) String retryQuery,
    @JsonProperty("expansion_lookup") @JsonInclude(JsonInclude.Include.NON_NULL)
        String expansionLookup) {

  public JudgeVerdict {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(retryAction, "retryAction");
    missingConcepts = List.copyOf(missingConcepts);
    weakRows = List.copyOf(weakRows);
  }

  /** How good the evidence is. */
  public enum Verdict implements WireName {
    /** Direct evidence covers every required concept. */
    ENOUGH_EVIDENCE,
    /** There is evidence, but it is partial, indirect or misses a required concept. */
    WEAK_EVIDENCE,
    /** No evidence row at all. */
    NO_EVIDENCE;

    /** The verdict with this wire name. */
    @JsonCreator
    public static Verdict parse(String name) {
      return valueOf(name.strip().toUpperCase(Locale.ROOT));
    }
  }

  /** The one extra retrieval pass the judge asks for. */
  public enum RetryAction implements WireName {
    /** Nothing to do: the evidence is enough, or nothing could help, or no pass is left. */
    NONE,
    /** Search once more for the missing concepts, anchored on what the evidence did match. */
    FOCUSED_RETRY,
    /** Follow the links and backlinks of the strongest row. */
    RELATED_EXPANSION;

    /** The action with this wire name. */
    @JsonCreator
    public static RetryAction parse(String name) {
      return valueOf(name.strip().toUpperCase(Locale.ROOT));
    }
  }

  /**
   * A top row that does not count as strong evidence on its own.
   *
   * @param sourceKey the row's key
   * @param reason why it is weak
   * @param relationship {@code links_to}/{@code linked_from} for a related row, else {@code null}
   * @param missingConcepts keys of the required concepts it misses
   */
  @JsonPropertyOrder({"source_key", "reason", "relationship", "missing_concepts"})
  public record WeakRow(
      @JsonProperty("source_key") String sourceKey,
      String reason,
      @JsonInclude(JsonInclude.Include.NON_NULL) String relationship,
      @JsonProperty("missing_concepts") List<String> missingConcepts) {
    public WeakRow {
      missingConcepts = List.copyOf(missingConcepts);
    }
  }
}
