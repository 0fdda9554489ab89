package dev.brain.research.plan;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One earlier turn of a conversation, as a surface sends it: the user's question and the record
 * keys the turn cited and gathered. The turn's answer is never part of it: model output is not
 * evidence.
 *
 * @param question the question the user asked, as typed
 * @param citedKeys record keys the turn's answer cited (empty when none)
 * @param evidenceKeys record keys of the turn's evidence (empty when none)
 */
public record ConversationTurn(
    String question,
    @JsonProperty("cited_keys") List<String> citedKeys,
    @JsonProperty("evidence_keys") List<String> evidenceKeys) {

  public ConversationTurn {
    question = question == null ? "" : question.strip();
    citedKeys = citedKeys == null ? List.of() : List.copyOf(citedKeys);
    evidenceKeys = evidenceKeys == null ? List.of() : List.copyOf(evidenceKeys);
  }
}
