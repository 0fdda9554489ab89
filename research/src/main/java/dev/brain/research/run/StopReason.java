package dev.brain.research.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import dev.brain.retrieval.WireName;
import java.util.Locale;

/**
 * Why a research run stopped: exactly the stop reasons of the runner contract. A run that completed
 * normally ends {@link #ENOUGH_EVIDENCE}, {@link #WEAK_EVIDENCE_BUDGET_EXHAUSTED}, {@link
 * #NO_EVIDENCE} or {@link #PLANNER_FAILED_DETERMINISTIC_USED}; the others say what cut it short.
 * When several apply, the most severe wins (the order below is from most to least severe, starting
 * at {@link #TIMEOUT_EXCEEDED} and {@link #CANCELLED}).
 */
public enum StopReason implements WireName {
  /** The judge found direct evidence for every required concept. */
  ENOUGH_EVIDENCE,
  /** Nothing in the corpus matched the question's key concepts, even after a retry. */
  NO_EVIDENCE,
  /** The evidence stayed weak after the one allowed retry or expansion (or none was allowed). */
  WEAK_EVIDENCE_BUDGET_EXHAUSTED,
  /** The model planner failed or timed out; the deterministic plan was used and the run went on. */
  PLANNER_FAILED_DETERMINISTIC_USED,
  /** The run reached its step budget before finishing. */
  MAX_STEPS_REACHED,
  /** The overall deadline or a stage budget ran out; the failure's code says which. */
  TIMEOUT_EXCEEDED,
  /** The caller cancelled the run (interrupted its thread), e.g. a web client went away. */
  CANCELLED,
  /** The chat model could not be reached; the pack stands. */
  SYNTHESIS_UNAVAILABLE,
  /** The chat model failed while answering; the pack stands. */
  SYNTHESIS_FAILED,
  /** The answer failed a citation hard gate and must not be shown as a normal answer. */
  VERIFICATION_FAILED;

  /** The stop reason with this wire name. */
  @JsonCreator
  public static StopReason parse(String name) {
    return valueOf(name.strip().toUpperCase(Locale.ROOT));
  }
}
