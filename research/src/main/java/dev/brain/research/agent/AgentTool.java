package dev.brain.research.agent;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tool the agent's controller model may call: a name, a description and a JSON schema for the
 * model, and a call from a JSON argument object to a JSON result text.
 */
public interface AgentTool {

  /** The stable tool name the model calls, e.g. {@code brain_search} or {@code summarize}. */
  String name();

  /** What the tool does, for the model. */
  String description();

  /** The JSON schema of the arguments object, as JSON text. */
  String parametersJsonSchema();

  /**
   * Whether the tool only reads. Agent runs are read-only: a tool that writes is never shown or run
   * unless the policy allows writes explicitly. Default true.
   */
  default boolean readOnly() {
    return true;
  }

  /**
   * Whether the tool's results are corpus evidence whose record keys the final answer may cite
   * (brain's own read tools). Worker output is derived text, never evidence. Default false.
   */
  default boolean evidence() {
    return false;
  }

  /**
   * Runs the tool.
   *
   * @param arguments the model's arguments, a JSON object
   * @return the result as text, usually a JSON object
   * @throws ToolFailure with a message for the model when the arguments or the call fail
   * @throws InterruptedException when the run is cancelled or its deadline passes
   */
  String call(JsonNode arguments) throws ToolFailure, InterruptedException;

  /** A failed call; the message is reported to the model, so it says what to change. */
  final class ToolFailure extends Exception {
    private static final long serialVersionUID = 1L;

    /** A failure with a message for the model. */
    public ToolFailure(String message) {
      super(message);
    }

    /** A failure with a message for the model and its cause. */
    public ToolFailure(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
