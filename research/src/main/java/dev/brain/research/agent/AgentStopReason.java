package dev.brain.research.agent;

import dev.brain.retrieval.WireName;

/** Why an agent run ended; only {@link #FINAL_ANSWER} carries an answer. */
public enum AgentStopReason implements WireName {
  /** The model gave a final answer and every cited key came back from a tool in this run. */
  FINAL_ANSWER,
  /** The final answer cited a key no tool returned (or cited none): no answer is shown. */
  VERIFICATION_FAILED,
  /** The model kept calling tools until the turn limit. */
  MAX_TURNS_REACHED,
  /** The model asked for more tool calls than the run allows. */
  MAX_TOOL_CALLS_REACHED,
  /** The run's deadline passed (model or tool). */
  TIMEOUT_EXCEEDED,
  /** The model sent invalid tool calls again after being told once. */
  INVALID_TOOL_CALLS,
  /** The controller model failed (unavailable, protocol error). */
  MODEL_ERROR,
  /** The run was cancelled. */
  CANCELLED;
}
