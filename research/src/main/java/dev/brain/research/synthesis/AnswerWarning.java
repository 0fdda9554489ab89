package dev.brain.research.synthesis;

import com.fasterxml.jackson.annotation.JsonCreator;
import dev.brain.retrieval.WireName;
import java.util.Locale;

/** Something a reader of an answer must know: the {@code answer_warnings} of a synthesis. */
public enum AnswerWarning implements WireName {
  /** The evidence budget dropped or trimmed rows; the answer saw only part of the pack. */
  EVIDENCE_TRUNCATED,
  /** The chat model was unavailable. */
  MODEL_UNAVAILABLE,
  /** The chat model failed. */
  MODEL_ERROR,
  /** The pack held no evidence. */
  NO_EVIDENCE;

  /** The warning with this wire name. */
  @JsonCreator
  public static AnswerWarning parse(String name) {
    return valueOf(name.strip().toUpperCase(Locale.ROOT));
  }
}
