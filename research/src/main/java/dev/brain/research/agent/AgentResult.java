package dev.brain.research.agent;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * The outcome of an agent run ({@code agent_run.v1}).
 *
 * @param schemaVersion {@code agent_run.v1}
 * @param task the user's task
 * @param controller the controller model id
 * @param answer the verified final answer; null unless the stop reason is {@code final_answer}
 * @param stopReason why the run ended
 * @param message what happened, for a stop other than a final answer (null otherwise)
 * @param citedKeys record keys the answer cites
 * @param evidenceKeys record keys brain's tools returned in this run
 * @param turns model turns taken
 * @param toolCalls tool calls run (refused ones included)
 * @param events the run's timeline
 */
@JsonPropertyOrder({
  "schema_version",
  "task",
  "controller",
  "stop_reason",
  "message",
  "answer",
  "cited_keys",
  "evidence_keys",
  "turns",
  "tool_calls",
  "events"
})
public record AgentResult(
    @JsonProperty("schema_version") String schemaVersion,
    String task,
    String controller,
    String answer,
    @JsonProperty("stop_reason") AgentStopReason stopReason,
    String message,
    @JsonProperty("cited_keys") List<String> citedKeys,
    @JsonProperty("evidence_keys") List<String> evidenceKeys,
    int turns,
    @JsonProperty("tool_calls") int toolCalls,
    List<AgentEvent> events) {

  /** The schema version of this shape. */
  public static final String SCHEMA_VERSION = "agent_run.v1";

  public AgentResult {
    citedKeys = List.copyOf(citedKeys);
    evidenceKeys = List.copyOf(evidenceKeys);
    events = List.copyOf(events);
  }

  /** Whether the run ended with a verified answer. */
  public boolean answered() {
    return stopReason == AgentStopReason.FINAL_ANSWER;
  }
}
