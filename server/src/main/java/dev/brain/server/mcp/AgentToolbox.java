package dev.brain.server.mcp;

import dev.brain.AgentSettings;
import dev.brain.Brain;
import dev.brain.BrainAgent;
import dev.brain.BrainConfig;
import dev.brain.models.chat.ChatModel;
import dev.brain.research.agent.AgentTool;
import dev.brain.research.agent.WorkerTools;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The tools of an agent run: brain's MCP read tools, the worker tools and the tools imported from
 * the {@code .mcp.json} files of {@code agent.mcp-configs}, handed to {@link Brain#agent}, which
 * adds the policy, hooks and budgets of {@code agent.*}. Shared by {@code brain agent} and {@code
 * POST /api/agent/run}. Close it to stop the imported MCP servers.
 */
public final class AgentToolbox implements AutoCloseable {
  private final BrainAgent agent;
  private final McpToolImport imported;

  private AgentToolbox(BrainAgent agent, McpToolImport imported) {
    this.agent = agent;
    this.imported = imported;
  }

  /**
   * Assembles the agent of {@code brain}.
   *
   * @param worker the model behind the worker tools
   * @param mcpConfigs more {@code .mcp.json} files besides {@code agent.mcp-configs}
   * @param deny more tool names to deny besides {@code agent.deny}
   * @throws McpConfigException if a {@code .mcp.json} file is not usable
   */
  public static AgentToolbox open(
      Brain brain, ChatModel worker, List<Path> mcpConfigs, Collection<String> deny) {
    BrainConfig config = brain.config();
    AgentSettings settings = config.agent();
    var tools = new ArrayList<AgentTool>(LocalAgentTools.over(new BrainTools(brain)));
    var files = new LinkedHashSet<Path>();
    settings.mcpConfigs().forEach(f -> files.add(config.dataDir().resolve(f).normalize()));
    mcpConfigs.forEach(f -> files.add(f.toAbsolutePath().normalize()));
    tools.addAll(WorkerTools.over(worker, settings.workerBudgets()));
    McpToolImport imported =
        files.isEmpty()
            ? McpToolImport.none()
            : McpToolImport.connect(
                List.copyOf(files),
                System.getenv(),
                tools.stream().map(AgentTool::name).toList(),
                settings.deadline());
    tools.addAll(imported.tools());
    var denied = new HashSet<>(deny);
    denied.addAll(imported.denied());
    return new AgentToolbox(brain.agent(tools, denied), imported);
  }

  /** The agent over these tools. */
  public BrainAgent agent() {
    return agent;
  }

  /** MCP servers that could not be used (reported, not fatal). */
  public List<McpToolImport.Failure> failures() {
    return imported.failures();
  }

  /** Stops the imported MCP servers. */
  @Override
  public void close() {
    imported.close();
  }
}
