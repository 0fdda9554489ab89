package dev.brain.server.mcp;

import dev.brain.AgentSettings;
import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.models.chat.ChatModel;
import dev.brain.research.agent.AgentBudgets;
import dev.brain.research.agent.AgentController;
import dev.brain.research.agent.AgentListener;
import dev.brain.research.agent.AgentResult;
import dev.brain.research.agent.AgentTool;
import dev.brain.research.agent.AgentTrace;
import dev.brain.research.agent.ToolHook;
import dev.brain.research.agent.ToolPolicy;
import dev.brain.research.agent.WorkerTools;
import dev.brain.research.run.RunId;
import dev.brain.research.trace.TraceStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Everything an agent run needs besides its controller model, assembled from {@code agent.*} in
 * brain.yaml: brain's local tools, the worker tools, the tools imported from {@code .mcp.json}
 * files, the allow/deny policy and the hook rules ({@code agent.hooks.*}). Shared by {@code brain
 * agent} and {@code POST /api/agent/run}. Close it to stop the imported MCP servers.
 */
public final class AgentToolbox implements AutoCloseable {
  private final AgentSettings settings;
  private final List<AgentTool> tools;
  private final ToolPolicy policy;
  private final List<ToolHook> hooks;
  private final McpToolImport imported;
  private final TraceStore traces;

  private AgentToolbox(
      AgentSettings settings,
      List<AgentTool> tools,
      ToolPolicy policy,
      List<ToolHook> hooks,
      McpToolImport imported,
      TraceStore traces) {
    this.settings = settings;
    this.traces = traces;
    this.tools = List.copyOf(tools);
    this.policy = policy;
    this.hooks = List.copyOf(hooks);
    this.imported = imported;
  }

  /**
   * Assembles the toolbox of {@code brain}.
   *
   * @param worker the model behind the worker tools
   * @param mcpConfigs more {@code .mcp.json} files besides {@code agent.mcp-configs}
   * @param deny more tool names to deny besides {@code agent.deny}
   * @throws McpConfigException if a {@code .mcp.json} file is not usable
   */
  public static AgentToolbox open(
      Brain brain, ChatModel worker, List<Path> mcpConfigs, Collection<String> deny) {
    BrainConfig config = brain.config();
    AgentSettings agent = config.agent();
    var tools = new ArrayList<AgentTool>(LocalAgentTools.over(new BrainTools(brain)));
    var workerBudgets = agent.workerBudgets();
    tools.addAll(WorkerTools.over(worker, workerBudgets));
    var files = new LinkedHashSet<Path>();
    agent.mcpConfigs().forEach(f -> files.add(config.dataDir().resolve(f).normalize()));
    mcpConfigs.forEach(f -> files.add(f.toAbsolutePath().normalize()));
    McpToolImport imported =
        files.isEmpty()
            ? McpToolImport.none()
            : McpToolImport.connect(
                List.copyOf(files),
                System.getenv(),
                tools.stream().map(AgentTool::name).toList(),
                agent.deadline());
    tools.addAll(imported.tools());
    var denied = new HashSet<>(agent.deny());
    denied.addAll(deny);
    denied.addAll(imported.denied());
    var policy = new ToolPolicy(new HashSet<>(agent.allow()), denied, false);
    var rules = agent.hooks();
    List<ToolHook> hooks = rules.isEmpty() ? List.of() : List.of(rules);
    return new AgentToolbox(agent, tools, policy, hooks, imported, brain.traces());
  }

  /** Every registered tool (the policy decides which a run shows). */
  public List<AgentTool> tools() {
    return tools;
  }

  /** The allow/deny policy. */
  public ToolPolicy policy() {
    return policy;
  }

  /** MCP servers that could not be used (reported, not fatal). */
  public List<McpToolImport.Failure> failures() {
    return imported.failures();
  }

  /** A controller loop over this toolbox; {@code maxTurns} overrides the configured limit. */
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
   * @param tracePath the trace directory, or null when it could not be written
   * @param traceError why the trace could not be written, or null
   */
  public record TracedRun(AgentResult result, String runId, Path tracePath, String traceError) {}

  /**
   * Runs {@code task} on {@code loop} and saves the run in the trace store (the same store as
   * research runs); a trace that cannot be written is reported in the result, never thrown.
   *
   * @param surface who asked: {@code cli}, {@code web_api}, {@code web_chat}
   */
  public TracedRun run(
      AgentController loop,
      String task,
      Collection<String> allowedTools,
      String surface,
      AgentListener listener) {
    return run(loop, task, allowedTools, surface, listener, true);
  }

  /**
   * Runs {@code task} on {@code loop}; saves the run in the trace store only when {@code save} (a
   * run asked not to be saved leaves nothing on disk and has no trace path).
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

  /** Stops the imported MCP servers. */
  @Override
  public void close() {
    imported.close();
  }
}
