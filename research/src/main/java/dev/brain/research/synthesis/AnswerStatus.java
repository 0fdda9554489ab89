package dev.brain.research.synthesis;

import com.fasterxml.jackson.annotation.JsonCreator;
import dev.brain.retrieval.WireName;
import java.util.Locale;

/** How a synthesis ended: the {@code answer_status} of {@code research_synthesis.v1}. */
public enum AnswerStatus implements WireName {
  /** An answer from all the evidence the pack offered. */
  OK,
  /** An answer from part of the evidence: the character budget dropped or trimmed rows. */
  OK_TRUNCATED,
  /**
   * An answer that covers part of the question: the quoted passages leave out something the
   * question asks about, and the answer's last line names it. Never shown as a full answer.
   */
  PARTIAL,
  /** The pack holds no evidence; the answer only says so (never a normal answer). */
  NO_EVIDENCE,
  /** The chat model could not be reached or refused the call; retrieval results stand. */
  UNAVAILABLE,
  /** The chat model failed mid-way (timeout, protocol error, cancellation). */
  ERROR;

  /** The status with this wire name. */
  @JsonCreator
  public static AnswerStatus parse(String name) {
    return valueOf(name.strip().toUpperCase(Locale.ROOT));
  }

  /**
   * Whether this status carries an answer with citations ({@code ok}, {@code ok_truncated} or
   * {@code partial}).
   */
  public boolean isAnswer() {
    return this == OK || this == OK_TRUNCATED || this == PARTIAL;
  }
}
