package dev.brain.server.http;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.brain.Brain;
import dev.brain.BrainAgent;
import dev.brain.ResearchRequest;
import dev.brain.ServerSettings;
import dev.brain.research.agent.AgentResult;
import dev.brain.research.agent.AgentStopReason;
import dev.brain.research.agent.AgentTask;
import dev.brain.research.plan.ConversationTurn;
import dev.brain.server.mcp.AgentToolbox;
import dev.brain.server.mcp.McpConfigException;
import io.helidon.common.media.type.MediaTypes;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/agent/run}: the bounded agent loop as server-sent events, in the style of {@code
 * /api/research/run}: {@code start} (controller, workers, the tools shown, MCP servers that
 * failed), a {@code progress} event per step (model turn, tool call with its arguments, result size
 * and duration, refusal), {@code answer} and {@code done} for a verified answer, {@code
 * verification_failed} for an answer citing keys no tool returned, or {@code error} for another
 * stop. Body, model and run slot are checked before the stream opens, so their failures are plain
 * HTTP errors. Every run is saved in the trace store.
 */
final class AgentService implements HttpService {
  private final ServerSettings config;
  private final Brain brain;
  private final ModelGate models;
  private final RunLimiter limiter;

  AgentService(ServerSettings config, Brain brain, ModelGate models, RunLimiter limiter) {
    this.config = config;
    this.brain = brain;
    this.models = models;
    this.limiter = limiter;
  }

  /**
   * The body of {@code POST /api/agent/run}.
   *
   * @param task the task (required, at most 4,000 characters)
   * @param allowedTools only these tools for this run (within brain.yaml's policy)
   * @param model the controller model instead of {@code agent.model}
   * @param maxTurns fewer turns than {@code agent.max-turns}
   * @param surface who asks, recorded in the trace ({@code web_chat}); default {@code web_api}
   * @param trace {@code false} to write no trace of the run; default {@code chat.save-traces}
   * @param conversation the conversation's earlier turns, oldest first (as for {@code POST
   *     /api/research/run}): their questions and cited keys are given to the agent as context
   */
  record AgentRunRequest(
      String task,
      @JsonProperty("allowed_tools") List<String> allowedTools,
      String model,
      @JsonProperty("max_turns") Integer maxTurns,
      String surface,
      Boolean trace,
      List<ConversationTurn> conversation) {

    static final int MAX_TASK_CHARS = 4_000;

    AgentRunRequest validate(int configuredTurns) {
      if (task == null || task.isBlank()) {
        throw ApiException.badRequest("invalid_task", "task is missing or blank", "task");
      }
      if (task.length() > MAX_TASK_CHARS) {
        throw ApiException.invalidOption(
            "the task is longer than " + MAX_TASK_CHARS + " characters", "task");
      }
      if (maxTurns != null && (maxTurns < 1 || maxTurns > configuredTurns)) {
        throw ApiException.invalidOption(
            "max_turns must be between 1 and " + configuredTurns + " (agent.max-turns)",
            "max_turns");
      }
      if (surface != null && !surface.matches("[a-z_]{1,24}")) {
        throw ApiException.invalidOption(
            "surface must be a short lower-case name such as web_chat, got '" + surface + "'",
            "surface");
      }
      if (allowedTools != null && allowedTools.stream().anyMatch(t -> t == null || t.isBlank())) {
        throw ApiException.invalidOption("allowed_tools holds an empty name", "allowed_tools");
      }
      ResearchRequest.validateConversation(turns());
      return this;
    }

    /** The earlier turns (none when absent). */
    List<ConversationTurn> turns() {
      return conversation == null ? List.of() : conversation;
    }
  }

  @Override
  public void routing(HttpRules rules) {
    rules.post("/run", this::run);
  }

  private void run(ServerRequest req, ServerResponse res) {
    var agent = brain.config().agent();
    var request =
        HttpJson.read(req, config.maxBodyBytes(), "POST /api/agent/run", AgentRunRequest.class)
            .validate(agent.maxTurns());
    if (!req.headers().isAccepted(MediaTypes.TEXT_EVENT_STREAM)) {
      throw new ApiException(
          Status.NOT_ACCEPTABLE_406,
          "not_acceptable",
          "this endpoint answers with text/event-stream; send Accept: text/event-stream",
          null);
    }
    String controllerSpec =
        request.model() != null && !request.model().isBlank()
            ? request.model().strip()
            : agent.controllerSpec(brain.config().chat());
    if (controllerSpec == null || dev.brain.models.chat.ChatModels.isExtractive(controllerSpec)) {
      throw ModelGate.unavailable(
          "the agent needs a tool-calling model: set agent.model in brain.yaml (e.g."
              + " ollama/qwen3:8b) or send 'model'");
    }
    try (var slot = limiter.acquire()) {
      BrainServer.refreshQuietly(brain);
      ModelGate.Resolved controller = models.resolve(controllerSpec);
      ModelGate.Resolved worker = models.resolve(agent.workerSpec(controllerSpec));
      AgentToolbox toolbox;
      try {
        toolbox = AgentToolbox.open(brain, worker.model(), List.of(), List.of());
      } catch (McpConfigException e) {
        throw new ApiException(
            Status.INTERNAL_SERVER_ERROR_500, "invalid_mcp_config", e.getMessage(), null);
      }
      Runnable freeSlot = slot::close;
      EventStream.serve(
          res,
          config.heartbeatInterval(),
          events -> {
            var loop = toolbox.agent().controller(controller.model(), request.maxTurns());
            var shown = loop.visibleTools(request.allowedTools());
            Map<String, Object> start = new LinkedHashMap<>();
            start.put("controller", controller.id());
            start.put("worker", worker.id());
            start.put("tools", shown);
            start.put("mcp_failures", toolbox.failures().stream().map(f -> f.line()).toList());
            events.emit("start", start);
            events.commit();
            var run =
                toolbox
                    .agent()
                    .run(
                        loop,
                        AgentTask.of(request.task(), request.turns()),
                        request.allowedTools(),
                        request.surface() == null ? "web_api" : request.surface(),
                        e -> events.emit("progress", e),
                        request.trace() == null
                            ? brain.config().chat().saveTraces()
                            : request.trace());
            if (Thread.currentThread().isInterrupted()) {
              return;
            }
            finish(run, events);
          },
          ResearchService::failure,
          () -> {
            toolbox.close();
            freeSlot.run();
          });
    }
  }

  private static void finish(BrainAgent.TracedRun run, EventStream.Emitter events) {
    AgentResult r = run.result();
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("schema_version", AgentResult.SCHEMA_VERSION);
    summary.put("run_id", run.runId());
    summary.put("stop_reason", r.stopReason());
    summary.put("controller", r.controller());
    summary.put("answer", r.answer());
    summary.put("cited_keys", r.citedKeys());
    summary.put("evidence_keys", r.evidenceKeys());
    summary.put("turns", r.turns());
    summary.put("tool_calls", r.toolCalls());
    summary.put("trace_id", run.tracePath() == null ? null : run.runId());
    summary.put("trace_error", run.traceError());
    if (r.answered()) {
      events.emit("answer", Map.of("text", r.answer()));
      events.emit("done", summary);
    } else if (r.stopReason() == AgentStopReason.VERIFICATION_FAILED) {
      summary.remove("answer");
      summary.put("message", r.message());
      events.emit("verification_failed", summary);
    } else {
      summary.remove("answer");
      summary.put("code", r.stopReason().wireName());
      summary.put("message", r.message());
      events.emit("error", summary);
    }
  }
}
