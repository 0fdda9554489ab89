package dev.brain;

import dev.brain.models.chat.ChatModel;
import dev.brain.research.agent.AgentBudgets;
import dev.brain.research.agent.AgentController;
import dev.brain.research.agent.AgentListener;
import dev.brain.research.agent.AgentResult;
import dev.brain.research.agent.AgentTool;
import dev.brain.research.agent.AgentTrace;
import dev.brain.research.agent.ToolHook;
import dev.brain.research.agent.ToolPolicy;
import dev.brain.research.run.RunId;
import dev.brain.research.trace.TraceStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;

/**
 * An agent over a brain ({@link Brain#agent}): the tools it was given, the allow/deny policy, the
 * hook rules and the budgets of {@code agent.*} in brain.yaml, and the trace store its runs are
 * saved in (the same as research runs). Shared by {@code brain agent} and {@code POST
 * /api/agent/run}.
 */
public final class BrainAgent {
  private final AgentSettings settings;
  private final List<AgentTool> tools;
  private final ToolPolicy policy;
  private final List<ToolHook> hooks;
  private final TraceStore traces;

  private BrainAgent(
      AgentSettings settings, List<AgentTool> tools, ToolPolicy policy, TraceStore traces) {
    this.settings = settings;
    this.tools = List.copyOf(tools);
    this.policy = policy;
    this.hooks = settings.hooks().isEmpty() ? List.of() : List.of(settings.hooks());
    this.traces = traces;
  }

  /** The agent of {@code brain}: see {@link Brain#agent}. */
  static BrainAgent of(Brain brain, List<AgentTool> tools, Collection<String> deny) {
    AgentSettings agent = brain.config().agent();
    var denied = new HashSet<>(agent.deny());
    denied.addAll(deny);
    var policy = new ToolPolicy(new HashSet<>(agent.allow()), denied, false);
    return new BrainAgent(agent, tools, policy, brain.traces());
  }

  /** Every registered tool (the policy decides which a run shows). */
  public List<AgentTool> tools() {
    return tools;
  }

  /** The allow/deny policy. */
  public ToolPolicy policy() {
    return policy;
  }

  /** A controller loop over this agent's tools; {@code maxTurns} overrides the configured limit. */
  public AgentController controller(ChatModel controller, Integer maxTurns) {
    var budgets =
        new AgentBudgets(
            maxTurns != null ? maxTurns : settings.maxTurns(),
            settings.maxToolCalls(),
            settings.maxToolOutputChars(),
            settings.deadline());
    return new AgentController(controller, tools, policy, budgets, hooks);
  }

  /**
   * A run and its saved trace.
   *
   * @param result the run's outcome
   * @param runId the run id (the trace directory's name)
   * @param tracePath the trace directory, or null when it was not written
   * @param traceError why the trace could not be written, or null
   */
  public record TracedRun(AgentResult result, String runId, Path tracePath, String traceError) {}

  /**
   * Runs {@code task} on {@code loop}; saves the run in the trace store only when {@code save} (a
   * run asked not to be saved leaves nothing on disk and has no trace path). A trace that cannot be
   * written is reported in the result, never thrown.
   *
   * @param surface who asked: {@code cli}, {@code web_api}, {@code web_chat}
   */
  public TracedRun run(
      AgentController loop,
      String task,
      Collection<String> allowedTools,
      String surface,
      AgentListener listener,
      boolean save) {
    Instant started = Instant.now();
    String runId = RunId.next(started);
    List<String> shown = loop.visibleTools(allowedTools);
    AgentResult result = loop.run(task, allowedTools, listener);
    if (!save) {
      return new TracedRun(result, runId, null, null);
    }
    try {
      var written = AgentTrace.of(runId, surface, started, shown, result).save(traces);
      return new TracedRun(result, runId, written.path(), null);
    } catch (IOException | RuntimeException e) {
      return new TracedRun(
          result,
          runId,
          null,
          e.getMessage() == null ? "the trace could not be written" : e.getMessage());
    }
  }
}
