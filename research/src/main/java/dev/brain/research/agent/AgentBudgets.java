package dev.brain.research.agent;

import java.time.Duration;

/**
 * The limits of one agent run; each one reached ends the run with its own {@link AgentStopReason}.
 *
 * @param maxTurns most model turns (default 8)
 * @param maxToolCalls most tool calls over the run (default 16)
 * @param maxToolOutputChars most characters of one tool result kept for the model (default 12,000);
 *     longer results are cut with a visible note
 * @param deadline time for the whole run, model and tools (default 3 minutes)
 */
public record AgentBudgets(
    int maxTurns, int maxToolCalls, int maxToolOutputChars, Duration deadline) {
  public AgentBudgets {
    if (maxTurns < 1 || maxToolCalls < 0 || maxToolOutputChars < 200) {
      throw new IllegalArgumentException(
          "agent budgets need max_turns >= 1, max_tool_calls >= 0 and max_tool_output_chars >="
              + " 200");
    }
    if (deadline == null || deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("agent deadline must be positive, got " + deadline);
    }
  }

  /** The defaults. */
  public static AgentBudgets defaults() {
    return new AgentBudgets(8, 16, 12_000, Duration.ofMinutes(3));
  }

  /** These budgets with another turn limit. */
  public AgentBudgets withMaxTurns(int turns) {
    return new AgentBudgets(turns, maxToolCalls, maxToolOutputChars, deadline);
  }

  /** These budgets with another tool-call limit. */
  public AgentBudgets withMaxToolCalls(int calls) {
    return new AgentBudgets(maxTurns, calls, maxToolOutputChars, deadline);
  }

  /** These budgets with another limit of kept tool output. */
  public AgentBudgets withMaxToolOutputChars(int chars) {
    return new AgentBudgets(maxTurns, maxToolCalls, chars, deadline);
  }

  /** These budgets with another deadline. */
  public AgentBudgets withDeadline(Duration time) {
    return new AgentBudgets(maxTurns, maxToolCalls, maxToolOutputChars, time);
  }
}
