package dev.brain;

import dev.brain.models.chat.ChatModels;
import java.time.Duration;
import java.util.List;

/**
 * {@code agent.*}: {@code brain agent}, the bounded tool-calling loop.
 *
 * @param model the controller (a tool-calling chat model); default {@code chat.model} when that is
 *     not {@code extractive}, else none (the agent then needs {@code --model}). Env {@code
 *     BRAIN_AGENT_MODEL}
 * @param workerModel the cheaper model behind the {@code summarize} and {@code extract} tools;
 *     default the controller's. Env {@code BRAIN_AGENT_WORKER_MODEL}
 * @param maxTurns most controller turns; default 8
 * @param maxToolCalls most tool calls per run; default 16
 * @param maxToolOutputChars most characters of one tool result kept; default 12,000
 * @param deadline time per run; default 3m
 * @param workerMaxTokens most tokens per worker answer; default 800
 * @param workerTimeout time per worker call, retry included; default 60s
 * @param allow tools the model may see and run (comma-separated); default all read-only tools
 * @param deny tools never shown nor run (comma-separated); default none
 * @param mcpConfigs {@code .mcp.json} files whose MCP servers' tools the agent may use
 *     (comma-separated paths, relative to the data directory); default none
 * @param hookHalt {@code agent.hooks.halt}: calls to halt, {@code TOOL} or {@code TOOL:REGEX}
 *     (comma-separated; see {@link dev.brain.research.agent.HookRules}); default none
 * @param hookSet {@code agent.hooks.set}: arguments to rewrite, {@code TOOL.ARG=VALUE}
 *     (comma-separated); default none
 */
public record AgentSettings(
    String model,
    String workerModel,
    int maxTurns,
    int maxToolCalls,
    int maxToolOutputChars,
    Duration deadline,
    int workerMaxTokens,
    Duration workerTimeout,
    List<String> allow,
    List<String> deny,
    List<String> mcpConfigs,
    String hookHalt,
    String hookSet) {
  public AgentSettings {
    allow = allow == null ? List.of() : List.copyOf(allow);
    deny = deny == null ? List.of() : List.copyOf(deny);
    mcpConfigs = mcpConfigs == null ? List.of() : List.copyOf(mcpConfigs);
  }

  /** The controller's model spec given the chat section, or {@code null} when none is set. */
  public String controllerSpec(ChatSettings chat) {
    if (model != null && !ChatModels.isExtractive(model)) {
      return model;
    }
    return ChatModels.isExtractive(chat.model()) ? null : chat.model();
  }

  /** The tool hook of {@code agent.hooks.halt} and {@code agent.hooks.set}. */
  public dev.brain.research.agent.HookRules hooks() {
    return dev.brain.research.agent.HookRules.parse(hookHalt, hookSet);
  }

  /** The worker tools' limits: the default input cap, {@code worker-max-tokens}, timeout. */
  public dev.brain.research.agent.WorkerTools.Budgets workerBudgets() {
    return new dev.brain.research.agent.WorkerTools.Budgets(
        dev.brain.research.agent.WorkerTools.Budgets.defaults().maxInputChars(),
        workerMaxTokens,
        workerTimeout);
  }

  /** The worker's model spec given the controller's. */
  public String workerSpec(String controller) {
    return workerModel == null || ChatModels.isExtractive(workerModel) ? controller : workerModel;
  }

  /** This section with another controller model. */
  public AgentSettings withModel(String value) {
    return new AgentSettings(
        ConfigValues.chatModel(value),
        workerModel,
        maxTurns,
        maxToolCalls,
        maxToolOutputChars,
        deadline,
        workerMaxTokens,
        workerTimeout,
        allow,
        deny,
        mcpConfigs,
        hookHalt,
        hookSet);
  }

  /** This section with another worker model. */
  public AgentSettings withWorkerModel(String value) {
    return new AgentSettings(
        model,
        ConfigValues.chatModel(value),
        maxTurns,
        maxToolCalls,
        maxToolOutputChars,
        deadline,
        workerMaxTokens,
        workerTimeout,
        allow,
        deny,
        mcpConfigs,
        hookHalt,
        hookSet);
  }

  /** The {@code agent.*} values of {@code r}: flag, environment, file or default. */
  static AgentSettings read(ConfigReader r) {
    String allowed = "ollama/<model>, openai/<model>";
    return new AgentSettings(
        r.checked("agent.model", "BRAIN_AGENT_MODEL", null, ConfigValues::chatModel, allowed),
        r.checked(
            "agent.worker-model",
            "BRAIN_AGENT_WORKER_MODEL",
            null,
            ConfigValues::chatModel,
            allowed),
        r.integer("agent.max-turns", null, 8, 1, 100),
        r.integer("agent.max-tool-calls", null, 16, 0, 1_000),
        r.integer("agent.max-tool-output-chars", null, 12_000, 200, 1_000_000),
        r.duration(
            "agent.deadline",
            null,
            Duration.ofMinutes(3),
            Duration.ofSeconds(1),
            ConfigValues.MAX_RUN),
        r.integer("agent.worker-max-tokens", null, 800, 0, 100_000),
        r.duration(
            "agent.worker-timeout",
            null,
            Duration.ofSeconds(60),
            Duration.ofSeconds(1),
            ConfigValues.MAX_RUN),
        r.list("agent.allow", null),
        r.list("agent.deny", null),
        r.list("agent.mcp-configs", null),
        r.checked("agent.hooks.halt", null, null, v -> hookRules(v, null), HOOK_HALT),
        r.checked("agent.hooks.set", null, null, v -> hookRules(null, v), HOOK_SET));
  }

  private static final String HOOK_HALT =
      "comma-separated TOOL or TOOL:REGEX (a tool name or a prefix ending in *)";
  private static final String HOOK_SET = "comma-separated TOOL.ARG=VALUE";

  /** The rules as written, once they parse. */
  private static String hookRules(String halt, String set) {
    try {
      dev.brain.research.agent.HookRules.parse(halt, set);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not usable (" + e.getMessage() + ")", e);
    }
    return halt != null ? halt : set;
  }
}
