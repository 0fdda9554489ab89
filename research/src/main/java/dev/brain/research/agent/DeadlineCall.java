package dev.brain.research.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;

/**
 * Runs one tool call on a virtual thread of its own and stops waiting when the run's deadline
 * passes, so a slow tool cannot hold the agent loop past its budget. The tool's thread is
 * interrupted then; a tool that ignores interrupts finishes unobserved.
 */
final class DeadlineCall {
  private DeadlineCall() {}

  /**
   * The result of {@code tool} on {@code arguments}, if it comes within {@code remaining}.
   *
   * @throws AgentTool.ToolFailure if the tool failed (an unexpected exception becomes one too)
   * @throws Passed if the deadline passed or the calling thread was interrupted first
   */
  static String call(AgentTool tool, JsonNode arguments, Duration remaining)
      throws AgentTool.ToolFailure, Passed {
    var holder = new Object[1];
    var failure = new Exception[1];
    Thread worker =
        Thread.ofVirtual()
            .name("agent-tool-" + tool.name())
            .start(
                () -> {
                  try {
                    holder[0] = tool.call(arguments);
                  } catch (AgentTool.ToolFailure | InterruptedException | RuntimeException e) {
                    failure[0] = e;
                  }
                });
    try {
      if (!worker.join(remaining.plusMillis(1))) {
        worker.interrupt();
        throw new Passed();
      }
    } catch (InterruptedException e) {
      worker.interrupt();
      Thread.currentThread().interrupt();
      throw new Passed();
    }
    if (failure[0] instanceof AgentTool.ToolFailure f) {
      throw f;
    }
    if (failure[0] instanceof InterruptedException) {
      throw new Passed();
    }
    if (failure[0] instanceof RuntimeException r) {
      throw new AgentTool.ToolFailure(
          r.getMessage() == null ? "an internal error" : r.getMessage(), r);
    }
    return (String) holder[0];
  }

  /** The deadline passed while a tool ran. */
  static final class Passed extends Exception {
    private static final long serialVersionUID = 1L;
  }
}
