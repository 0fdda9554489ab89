package dev.brain.research.agent;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One step of an agent run, sent live to the listener and kept in the run's timeline.
 *
 * @param type {@code turn} (a model turn starts), {@code tool_call} (a call ran), {@code
 *     tool_refused} (denied, unknown or invalid; reported to the model), {@code answer}, {@code
 *     stop}
 * @param turn the model turn, from 1
 * @param tool the tool name (tool events only)
 * @param arguments the call's arguments as JSON text (tool events only)
 * @param resultChars characters of the tool result before any cut (-1 when none)
 * @param truncated whether the result was cut to the output budget
 * @param elapsedMillis the step's duration in milliseconds
 * @param message a short human-readable note (refusal reason, stop reason, failure)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AgentEvent(
    String type,
    int turn,
    String tool,
    String arguments,
    @JsonProperty("result_chars") int resultChars,
    boolean truncated,
    @JsonProperty("elapsed_ms") long elapsedMillis,
    String message) {

  static AgentEvent turn(int turn) {
    return new AgentEvent("turn", turn, null, null, -1, false, 0, null);
  }

  static AgentEvent note(String type, int turn, String message) {
    return new AgentEvent(type, turn, null, null, -1, false, 0, message);
  }

  /** A line for a terminal timeline. */
  public String line() {
    return switch (type) {
      case "turn" -> "turn " + turn;
      case "tool_call" ->
          "  -> "
              + tool
              + " "
              + shorten(arguments)
              + "  ("
              + resultChars
              + " chars"
              + (truncated ? ", cut" : "")
              + ", "
              + elapsedMillis
              + " ms)";
      case "tool_refused" -> "  x  " + tool + ": " + message;
      default -> type + ": " + message;
    };
  }

  /** Long arguments (a worker's text) shortened for one terminal line. */
  private static String shorten(String text) {
    return text.length() <= 160 ? text : text.substring(0, 157) + "...";
  }
}
