package dev.brain.research.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.models.chat.ChatException;
import dev.brain.models.chat.ChatListener;
import dev.brain.models.chat.ChatMessage;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatRequest;
import dev.brain.models.chat.ChatResponse;
import dev.brain.research.synthesis.Verifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The bounded agent loop: a tool-calling controller model is shown the permitted tools' schemas,
 * its tool calls are run and their results fed back, until it answers without calling a tool or a
 * budget ends the run.
 *
 * <p>Answers stay honest: the final answer must cite record keys in brackets, and every cited key
 * must have come back from one of brain's evidence tools in this run (worker output does not
 * count). Otherwise the run stops as {@link AgentStopReason#VERIFICATION_FAILED} and shows no
 * answer.
 *
 * <p>Thread-safe; one {@link #run} per task. Tool calls run on the calling thread, one at a time.
 */
public final class AgentController {
  /** The controller's instructions (versioned with the agent wire shape). */
  static final String SYSTEM_PROMPT =
      """
      You are brain's research agent. Answer the user's task from the user's saved corpus, using \
      the tools: search or build a research pack first, read records when needed, and use the \
      worker tools to summarize or extract from text you already have. Call tools only when they \
      help; stop calling tools once you can answer.
      Rules for the final answer: use only what the tools returned; cite every material claim \
      with the exact record key in brackets, e.g. [note:vault/coffee.md]; cite only keys that a \
      tool returned; say plainly when the evidence is weak or missing; add no outside knowledge.""";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ChatModel model;
  private final Map<String, AgentTool> tools;
  private final List<String> order;
  private final ToolPolicy policy;
  private final AgentBudgets budgets;
  private final List<ToolHook> hooks;

  /**
   * A controller over these tools.
   *
   * @param model the tool-calling controller model
   * @param tools every registered tool; names must be unique
   * @param policy which tools are shown and may run
   * @param budgets the limits of each run
   */
  public AgentController(
      ChatModel model, Collection<AgentTool> tools, ToolPolicy policy, AgentBudgets budgets) {
    this(model, tools, policy, budgets, List.of());
  }

  /**
   * A controller whose permitted calls pass through {@code hooks} before they run.
   *
   * @param hooks may halt or rewrite a call, in order
   */
  public AgentController(
      ChatModel model,
      Collection<AgentTool> tools,
      ToolPolicy policy,
      AgentBudgets budgets,
      List<ToolHook> hooks) {
    this.hooks = List.copyOf(hooks);
    this.model = Objects.requireNonNull(model, "model");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.budgets = Objects.requireNonNull(budgets, "budgets");
    var byName = new LinkedHashMap<String, AgentTool>();
    for (AgentTool tool : tools) {
      if (byName.putIfAbsent(tool.name(), tool) != null) {
        throw new IllegalArgumentException("two agent tools are named '" + tool.name() + "'");
      }
    }
    this.tools = Map.copyOf(byName);
    this.order = List.copyOf(byName.keySet());
  }

  /** The names of the tools a run with this request allowlist would show the model, in order. */
  public List<String> visibleTools(Collection<String> allowedTools) {
    ToolPolicy effective = policy.restrictedTo(allowedTools);
    return order.stream().filter(n -> effective.refusal(tools.get(n)) == null).toList();
  }

  /**
   * Runs one task to a verified answer or an explicit stop.
   *
   * @param task the user's task
   * @param allowedTools the request's allowlist (null: the policy alone decides)
   * @param listener receives each event live
   */
  public AgentResult run(String task, Collection<String> allowedTools, AgentListener listener) {
    if (task == null || task.isBlank()) {
      throw new IllegalArgumentException("the agent needs a task");
    }
    return new Run(task.strip(), policy.restrictedTo(allowedTools), listener).execute();
  }

  /** The state of one run. */
  private final class Run {
    private final String task;
    private final ToolPolicy effective;
    private final AgentListener listener;
    private final long deadline;
    private final List<ChatMessage> messages = new ArrayList<>();
    private final List<AgentEvent> events = new ArrayList<>();
    private final EvidenceKeys evidence = new EvidenceKeys();
    private final List<ChatRequest.ToolSpec> specs;
    private int turn;
    private int toolCalls;
    private boolean warnedInvalid;

    Run(String task, ToolPolicy effective, AgentListener listener) {
      this.task = task;
      this.effective = effective;
      this.listener = listener == null ? AgentListener.NONE : listener;
      this.deadline = System.nanoTime() + budgets.deadline().toNanos();
      this.specs =
          order.stream()
              .map(tools::get)
              .filter(t -> effective.refusal(t) == null)
              .map(
                  t ->
                      new ChatRequest.ToolSpec(t.name(), t.description(), t.parametersJsonSchema()))
              .toList();
      messages.add(ChatMessage.system(SYSTEM_PROMPT));
      messages.add(ChatMessage.user(task));
    }

    AgentResult execute() {
      while (turn < budgets.maxTurns()) {
        if (remaining().isZero()) {
          return stop(AgentStopReason.TIMEOUT_EXCEEDED, "the run's deadline passed");
        }
        turn++;
        emit(AgentEvent.turn(turn));
        ChatResponse response;
        try {
          response = model.chat(request(), ChatListener.NONE);
        } catch (ChatException e) {
          return modelFailure(e);
        }
        if (response.toolCalls().isEmpty()) {
          return finish(response.content());
        }
        AgentResult stopped = runCalls(response);
        if (stopped != null) {
          return stopped;
        }
      }
      return stop(
          AgentStopReason.MAX_TURNS_REACHED,
          "the model was still calling tools after " + budgets.maxTurns() + " turns");
    }

    private ChatRequest request() {
      Duration left = remaining();
      return new ChatRequest(
          messages, left.isZero() ? Duration.ofMillis(1) : left, false, 0.0, 0, specs);
    }

    private AgentResult modelFailure(ChatException e) {
      return switch (e.kind()) {
        case TIMEOUT -> stop(AgentStopReason.TIMEOUT_EXCEEDED, e.getMessage());
        case CANCELLED -> stop(AgentStopReason.CANCELLED, e.getMessage());
        default -> stop(AgentStopReason.MODEL_ERROR, e.getMessage());
      };
    }

    /** Runs the turn's calls; returns a result when the run must stop. */
    private AgentResult runCalls(ChatResponse response) {
      var echoed = new ArrayList<ChatResponse.ToolCall>();
      var results = new ArrayList<ChatMessage>();
      boolean invalid = false;
      for (ChatResponse.ToolCall call : response.toolCalls()) {
        JsonNode arguments = parseArguments(call.argumentsJson());
        // The history must stay sendable: a call with broken arguments is echoed with {}.
        echoed.add(
            arguments == null
                ? new ChatResponse.ToolCall(call.id(), call.name(), "{}")
                : new ChatResponse.ToolCall(call.id(), call.name(), arguments.toString()));
        if (arguments == null) {
          invalid = true;
          results.add(
              refuse(
                  call,
                  "the arguments of this call are not a JSON object: "
                      + excerpt(call.argumentsJson())
                      + "; send the arguments as one JSON object matching the tool's schema"));
          continue;
        }
        if (toolCalls >= budgets.maxToolCalls()) {
          return stop(
              AgentStopReason.MAX_TOOL_CALLS_REACHED,
              "the model asked for more than " + budgets.maxToolCalls() + " tool calls");
        }
        if (remaining().isZero()) {
          return stop(AgentStopReason.TIMEOUT_EXCEEDED, "the run's deadline passed");
        }
        toolCalls++;
        ToolOutcome outcome = runOne(call, arguments);
        if (outcome.timedOut) {
          return stop(
              AgentStopReason.TIMEOUT_EXCEEDED,
              "the run's deadline passed while tool '" + call.name() + "' ran");
        }
        results.add(ChatMessage.tool(call.id(), outcome.text));
      }
      if (invalid) {
        if (warnedInvalid) {
          return stop(
              AgentStopReason.INVALID_TOOL_CALLS,
              "the model sent tool calls with invalid JSON arguments again after being told");
        }
        warnedInvalid = true;
      }
      messages.add(ChatMessage.assistant(response.content(), echoed));
      messages.addAll(results);
      return null;
    }

    private record ToolOutcome(String text, boolean timedOut) {}

    private ToolOutcome runOne(ChatResponse.ToolCall call, JsonNode arguments) {
      AgentTool tool = tools.get(call.name());
      if (tool == null) {
        return new ToolOutcome(
            refusalText(
                call,
                "there is no tool named '"
                    + call.name()
                    + "'; the tools are: "
                    + String.join(", ", specs.stream().map(ChatRequest.ToolSpec::name).toList())),
            false);
      }
      String refusal = effective.refusal(tool);
      if (refusal != null) {
        return new ToolOutcome(refusalText(call, refusal + "; do not call it again"), false);
      }
      for (ToolHook hook : hooks) {
        ToolHook.Decision decision = hook.beforeCall(tool.name(), arguments);
        if (decision.halted()) {
          return new ToolOutcome(refusalText(call, decision.haltReason()), false);
        }
        arguments = decision.arguments();
      }
      long start = System.nanoTime();
      String result;
      try {
        result = DeadlineCall.call(tool, arguments, remaining());
      } catch (DeadlineCall.Passed e) {
        return new ToolOutcome("", true);
      } catch (AgentTool.ToolFailure e) {
        result = errorJson("tool '" + tool.name() + "' failed: " + e.getMessage());
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      String kept = cut(result == null ? "" : result);
      if (tool.evidence()) {
        evidence.collect(result, kept);
      }
      emit(
          new AgentEvent(
              "tool_call",
              turn,
              tool.name(),
              arguments.toString(),
              result == null ? 0 : result.length(),
              kept.length() != (result == null ? 0 : result.length()),
              millis,
              null));
      return new ToolOutcome(kept, false);
    }

    private ChatMessage refuse(ChatResponse.ToolCall call, String reason) {
      return ChatMessage.tool(call.id(), refusalText(call, reason));
    }

    private String refusalText(ChatResponse.ToolCall call, String reason) {
      emit(
          new AgentEvent(
              "tool_refused", turn, call.name(), call.argumentsJson(), -1, false, 0, reason));
      return errorJson(reason);
    }

    private String cut(String result) {
      int max = budgets.maxToolOutputChars();
      if (result.length() <= max) {
        return result;
      }
      return result.substring(0, max)
          + "\n[brain: tool output cut from "
          + result.length()
          + " to "
          + max
          + " characters; ask for less (a smaller limit, fewer keys) to see the rest]";
    }

    private AgentResult finish(String answer) {
      String text = answer == null ? "" : answer.strip();
      List<String> cited = Verifier.citedKeys(text);
      var unknown = cited.stream().filter(k -> !evidence.returned(k)).toList();
      if (!unknown.isEmpty()) {
        return stop(
            AgentStopReason.VERIFICATION_FAILED,
            "the answer cites keys no tool returned in this run: " + String.join(", ", unknown),
            cited);
      }
      if (cited.isEmpty() && !evidence.isEmpty()) {
        return stop(
            AgentStopReason.VERIFICATION_FAILED,
            "the answer cites no record key although the tools returned evidence",
            cited);
      }
      if (text.isEmpty()) {
        return stop(AgentStopReason.MODEL_ERROR, "the model ended without an answer", cited);
      }
      emit(AgentEvent.note("answer", turn, cited.size() + " cited keys"));
      return result(text, AgentStopReason.FINAL_ANSWER, null, cited);
    }

    private AgentResult stop(AgentStopReason reason, String message) {
      return stop(reason, message, List.of());
    }

    private AgentResult stop(AgentStopReason reason, String message, List<String> cited) {
      emit(AgentEvent.note("stop", turn, reason.wireName() + ": " + message));
      return result(null, reason, message, cited);
    }

    private AgentResult result(
        String answer, AgentStopReason reason, String message, List<String> cited) {
      return new AgentResult(
          AgentResult.SCHEMA_VERSION,
          task,
          model.id(),
          answer,
          reason,
          message,
          cited,
          evidence.list(),
          turn,
          toolCalls,
          events);
    }

    private void emit(AgentEvent event) {
      events.add(event);
      listener.onEvent(event);
    }

    private Duration remaining() {
      long left = deadline - System.nanoTime();
      return left <= 0 ? Duration.ZERO : Duration.ofNanos(left);
    }
  }

  private static JsonNode parseArguments(String json) {
    if (json == null || json.isBlank()) {
      return JSON.createObjectNode();
    }
    try {
      JsonNode node = JSON.readTree(json);
      return node != null && node.isObject() ? node : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static String errorJson(String message) {
    return JSON.createObjectNode().put("error", message).toString();
  }

  private static String excerpt(String text) {
    String s = text == null ? "" : text;
    return "'" + (s.length() > 120 ? s.substring(0, 120) + "…" : s) + "'";
  }
}
