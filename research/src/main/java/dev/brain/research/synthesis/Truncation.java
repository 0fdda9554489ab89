package dev.brain.research.synthesis;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What the evidence budget of a synthesis left out.
 *
 * @param evidenceBudgetChars the budget ({@code max_evidence_chars})
 * @param evidenceCharsUsed characters of evidence blocks actually included
 * @param droppedSourceKeys keys of evidence rows left out entirely, in rank order
 * @param partiallyTrimmedSourceKey the key of the one row cut short (always the bottom-most
 *     included row), or {@code null}
 */
public record Truncation(
    @JsonProperty("evidence_budget_chars") int evidenceBudgetChars,
    @JsonProperty("evidence_chars_used") int evidenceCharsUsed,
    @JsonProperty("dropped_source_keys") List<String> droppedSourceKeys,
    @JsonProperty("partially_trimmed_source_key") String partiallyTrimmedSourceKey) {

  public Truncation {
    droppedSourceKeys = List.copyOf(droppedSourceKeys);
  }

  /** Whether anything was dropped or trimmed. */
  @JsonIgnore
  public boolean truncated() {
    return !droppedSourceKeys.isEmpty() || partiallyTrimmedSourceKey != null;
  }
}
