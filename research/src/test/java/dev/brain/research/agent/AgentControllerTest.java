package dev.brain.research.agent;

import static dev.brain.research.agent.ScriptedTools.JSON;
import static dev.brain.research.agent.ScriptedTools.ollamaAnswer;
import static dev.brain.research.agent.ScriptedTools.ollamaToolCall;
import static dev.brain.research.agent.ScriptedTools.openAiAnswer;
import static dev.brain.research.agent.ScriptedTools.openAiToolCall;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatModels;
import dev.brain.models.chat.FakeOllamaServer;
import dev.brain.models.chat.FakeOpenAiServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AgentControllerTest extends ScriptedControllerTestCase {
  private static final String COFFEE = "note:vault/coffee.md";
  private static final String GRINDER = "note:vault/grinder.md";

  private static final String SUMMARY =
      "{\"summary\":\"A finer grind slows the shot ["
          + COFFEE
          + "].\","
          + "\"key_points\":[\"grind finer for slower shots\",\"burr grinders are consistent\"]}";

  @Test
  void openAiControllerSelectsWorkerToolAndWritesCitedAnswer() throws Exception {
    try (FakeOllamaServer worker = FakeOllamaServer.start();
        ChatModel workerModel = ChatModels.open("ollama/worker-test", worker.config())) {
      var search =
          ScriptedTools.Search.rows(
              COFFEE, "Grind finer when shots run fast.", GRINDER, "Burr grinders are even.");
      controller.enqueue(
          openAiToolCall("call_1", "brain_search", "{\"query\":\"espresso grind\"}"),
          openAiToolCall(
              "call_2",
              "summarize",
              "{\"text\":\"[" + COFFEE + "] Grind finer when shots run fast.\",\"goal\":\"tips\"}"),
          openAiAnswer("Grind finer ", "to slow a fast shot [" + COFFEE + "]."));
      worker.enqueue(ollamaAnswer(SUMMARY.substring(0, 20), SUMMARY.substring(20)));
      var events = new ArrayList<AgentEvent>();

      AgentResult result =
          new AgentController(
                  model, tools(search, workerModel), ToolPolicy.readOnly(), AgentBudgets.defaults())
              .run("How do I fix a fast espresso shot?", null, events::add);

      assertThat(result.stopReason()).isEqualTo(AgentStopReason.FINAL_ANSWER);
      assertThat(result.answer()).isEqualTo("Grind finer to slow a fast shot [" + COFFEE + "].");
      assertThat(result.citedKeys()).containsExactly(COFFEE);
      assertThat(result.evidenceKeys()).containsExactly(COFFEE, GRINDER);
      assertThat(result.turns()).isEqualTo(3);
      assertThat(result.toolCalls()).isEqualTo(2);
      assertThat(search.calls).hasSize(1);
      assertThat(search.calls.get(0).path("query").asText()).isEqualTo("espresso grind");
      assertThat(events)
          .filteredOn(e -> e.type().equals("tool_call"))
          .extracting(AgentEvent::tool)
          .containsExactly("brain_search", "summarize");

      JsonNode first = controller.requests().get(0).json();
      assertThat(first.path("tools").findValuesAsText("name"))
          .containsExactly("brain_search", "summarize", "extract");
      JsonNode third = controller.requests().get(2).json();
      JsonNode messages = third.path("messages");
      JsonNode workerResult = messages.get(messages.size() - 1);
      assertThat(workerResult.path("role").asText()).isEqualTo("tool");
      assertThat(workerResult.path("tool_call_id").asText()).isEqualTo("call_2");
      assertThat(JSON.readTree(workerResult.path("content").asText()).path("key_points"))
          .hasSize(2);
      JsonNode askedCall = messages.get(messages.size() - 2).path("tool_calls").get(0);
      assertThat(askedCall.path("function").path("name").asText()).isEqualTo("summarize");

      JsonNode workerRequest = worker.lastRequest().json();
      assertThat(workerRequest.path("format").asText()).isEqualTo("json");
      assertThat(workerRequest.path("tools").isMissingNode()).isTrue();
    }
  }

  @Test
  void ollamaControllerSelectsWorkerToolAndWritesCitedAnswer() throws Exception {
    try (FakeOllamaServer ollama = FakeOllamaServer.start();
        FakeOpenAiServer worker = FakeOpenAiServer.start();
        ChatModel controllerModel = ChatModels.open("ollama/controller-test", ollama.config());
        ChatModel workerModel = ChatModels.open("openai/worker-test", worker.config())) {
      var search = ScriptedTools.Search.rows(COFFEE, "Grind finer when shots run fast.");
      ollama.enqueue(
          ollamaToolCall("brain_search", "{\"query\":\"espresso\"}"),
          ollamaToolCall("summarize", "{\"text\":\"Grind finer.\",\"goal\":\"tips\"}"),
          ollamaAnswer("Grind finer [", COFFEE, "]."));
      worker.enqueue(openAiAnswer(SUMMARY));

      AgentResult result =
          new AgentController(
                  controllerModel,
                  tools(search, workerModel),
                  ToolPolicy.readOnly(),
                  AgentBudgets.defaults())
              .run("Fast espresso shot?", null, AgentListener.NONE);

      assertThat(result.answered()).isTrue();
      assertThat(result.answer()).isEqualTo("Grind finer [" + COFFEE + "].");
      assertThat(worker.lastRequest().json().path("response_format").path("type").asText())
          .isEqualTo("json_object");
      JsonNode messages = ollama.requests().get(2).json().path("messages");
      JsonNode call = messages.get(messages.size() - 2).path("tool_calls").get(0);
      assertThat(call.path("function").path("arguments").path("goal").asText()).isEqualTo("tips");
      assertThat(messages.get(messages.size() - 1).path("content").asText()).contains("key_points");
    }
  }

  @Test
  void modelThatNeverStopsEndsAtMaxTurns() throws Exception {
    var search = ScriptedTools.Search.rows(COFFEE, "text");
    for (int i = 0; i < 3; i++) {
      controller.enqueue(openAiToolCall("call_" + i, "brain_search", "{\"query\":\"q\"}"));
    }

    AgentResult result =
        new AgentController(
                model, List.of(search), ToolPolicy.readOnly(), budgets().withMaxTurns(3))
            .run("loop forever", null, AgentListener.NONE);

    assertThat(result.stopReason()).isEqualTo(AgentStopReason.MAX_TURNS_REACHED);
    assertThat(result.answer()).isNull();
    assertThat(result.turns()).isEqualTo(3);
    assertThat(search.calls).hasSize(3);
    assertThat(controller.requests()).hasSize(3);
  }

  @Test
  void toolCallsBeyondTheBudgetStopTheRun() throws Exception {
    var search = ScriptedTools.Search.rows(COFFEE, "text");
    controller.enqueue(
        openAiToolCall("a", "brain_search", "{}"), openAiToolCall("b", "brain_search", "{}"));

    AgentResult result =
        new AgentController(
                model, List.of(search), ToolPolicy.readOnly(), budgets().withMaxToolCalls(1))
            .run("search twice", null, AgentListener.NONE);

    assertThat(result.stopReason()).isEqualTo(AgentStopReason.MAX_TOOL_CALLS_REACHED);
    assertThat(search.calls).hasSize(1);
  }

  @Test
  void oversizedToolOutputIsCutWithVisibleNote() throws Exception {
    String longText = "x".repeat(5_000);
    var search = ScriptedTools.Search.rows(COFFEE, longText, GRINDER, "short");
    controller.enqueue(
        openAiToolCall("c", "brain_search", "{}"), openAiAnswer("Short [" + COFFEE + "]."));
    var events = new ArrayList<AgentEvent>();

    AgentResult result =
        new AgentController(
                model,
                List.of(search),
                ToolPolicy.readOnly(),
                budgets().withMaxToolOutputChars(1_000))
            .run("long", null, events::add);

    assertThat(result.answered()).isTrue();
    String fed =
        controller.requests().get(1).json().path("messages").get(3).path("content").asText();
    assertThat(fed).startsWith("{\"results\"").contains("[brain: tool output cut from ");
    assertThat(fed.length()).isLessThan(1_200);
    // The cut-off key was never seen by the model, so it is not citable evidence.
    assertThat(result.evidenceKeys()).containsExactly(COFFEE);
    AgentEvent call = events.stream().filter(e -> e.type().equals("tool_call")).findFirst().get();
    assertThat(call.truncated()).isTrue();
    assertThat(call.resultChars()).isGreaterThan(5_000);
  }

  @Test
  void invalidToolCallJsonIsReportedOnceThenStops() throws Exception {
    var search = ScriptedTools.Search.rows(COFFEE, "text");
    controller.enqueue(
        openAiToolCall("bad1", "brain_search", "{\"query\": \"unclosed"),
        openAiToolCall("bad2", "brain_search", "not json at all"));

    AgentResult result =
        new AgentController(model, List.of(search), ToolPolicy.readOnly(), budgets())
            .run("broken", null, AgentListener.NONE);

    assertThat(result.stopReason()).isEqualTo(AgentStopReason.INVALID_TOOL_CALLS);
    assertThat(search.calls).isEmpty();
    JsonNode messages = controller.requests().get(1).json().path("messages");
    JsonNode report = messages.get(messages.size() - 1);
    assertThat(report.path("tool_call_id").asText()).isEqualTo("bad1");
    assertThat(report.path("content").asText()).contains("not a JSON object");
    JsonNode echoed = messages.get(messages.size() - 2).path("tool_calls").get(0);
    assertThat(echoed.path("function").path("arguments").asText()).isEqualTo("{}");
  }

  @Test
  void unknownToolNameIsReportedToTheModel() throws Exception {
    var search = ScriptedTools.Search.rows(COFFEE, "text");
    controller.enqueue(
        openAiToolCall("u", "web_search", "{\"q\":\"x\"}"),
        openAiToolCall("s", "brain_search", "{}"),
        openAiAnswer("Found [" + COFFEE + "]."));

    AgentResult result =
        new AgentController(model, List.of(search), ToolPolicy.readOnly(), budgets())
            .run("unknown", null, AgentListener.NONE);

    assertThat(result.answered()).isTrue();
    String report =
        controller.requests().get(1).json().path("messages").get(3).path("content").asText();
    assertThat(report).contains("no tool named 'web_search'").contains("brain_search");
    assertThat(result.events())
        .filteredOn(e -> e.type().equals("tool_refused"))
        .extracting(AgentEvent::tool)
        .containsExactly("web_search");
  }

  @Test
  void deniedToolIsHiddenFromSchemasAndRefusedWhenCalledAnyway() throws Exception {
    var search = ScriptedTools.Search.rows(COFFEE, "text");
    var writer = new ScriptedTools.Writer();
    controller.enqueue(
        openAiToolCall("d", "brain_search", "{}"),
        openAiToolCall("w", "write_note", "{}"),
        openAiAnswer("Nothing to cite."));
    var policy = ToolPolicy.readOnly().denying(Set.of("brain_search"));

    AgentResult result =
        new AgentController(model, List.of(search, writer), policy, budgets())
            .run("denied", null, AgentListener.NONE);

    assertThat(controller.requests().get(0).json().path("tools").isMissingNode()).isTrue();
    assertThat(search.calls).isEmpty();
    assertThat(controller.requests().get(1).json().path("messages").get(3).toString())
        .contains("denied by policy");
    assertThat(controller.requests().get(2).json().path("messages").get(5).toString())
        .contains("agent runs are read-only");
    assertThat(result.answered()).isTrue();
    assertThat(result.evidenceKeys()).isEmpty();
  }

  @Test
  void requestAllowlistNarrowsTheToolsShown() throws Exception {
    var search = ScriptedTools.Search.rows(COFFEE, "text");
    var agent =
        new AgentController(
            model, tools(search, model), ToolPolicy.readOnly(), AgentBudgets.defaults());

    assertThat(agent.visibleTools(null)).containsExactly("brain_search", "summarize", "extract");
    assertThat(agent.visibleTools(List.of("extract"))).containsExactly("extract");
    assertThat(agent.visibleTools(List.of())).isEmpty();
  }

  @Test
  void hookRewritesArgumentsBeforeTheToolRuns() throws Exception {
    var search = ScriptedTools.Search.rows(COFFEE, "text");
    controller.enqueue(
        openAiToolCall("s", "brain_search", "{\"query\":\"q\",\"limit\":100}"),
        openAiAnswer("Found [" + COFFEE + "]."));
    ToolHook capLimit =
        (tool, arguments) ->
            ToolHook.Decision.rewrite(
                ((com.fasterxml.jackson.databind.node.ObjectNode) arguments.deepCopy())
                    .put("limit", 5));

    AgentResult result =
        new AgentController(
                model, List.of(search), ToolPolicy.readOnly(), budgets(), List.of(capLimit))
            .run("rewrite", null, AgentListener.NONE);

    assertThat(result.answered()).isTrue();
    assertThat(search.calls.get(0).path("limit").asInt()).isEqualTo(5);
  }

  @Test
  void hookHaltsCallAndTheModelIsTold() throws Exception {
    var search = ScriptedTools.Search.rows(COFFEE, "text");
    controller.enqueue(
        openAiToolCall("s", "brain_search", "{\"query\":\"secret\"}"),
        openAiAnswer("I could not search."));
    ToolHook noSecrets =
        (tool, arguments) ->
            arguments.path("query").asText().contains("secret")
                ? ToolHook.Decision.halt("queries about secrets are not allowed")
                : ToolHook.Decision.proceed(arguments);

    AgentResult result =
        new AgentController(
                model, List.of(search), ToolPolicy.readOnly(), budgets(), List.of(noSecrets))
            .run("halt", null, AgentListener.NONE);

    assertThat(search.calls).isEmpty();
    assertThat(controller.requests().get(1).json().path("messages").get(3).toString())
        .contains("queries about secrets are not allowed");
    assertThat(result.answered()).isTrue();
  }

  @Test
  void answerCitingKeyNoToolReturnedIsVerificationFailed() throws Exception {
    var search = ScriptedTools.Search.rows(COFFEE, "text");
    controller.enqueue(
        openAiToolCall("s", "brain_search", "{}"),
        openAiAnswer("Made up [note:vault/other.md] and real [" + COFFEE + "]."));

    AgentResult result =
        new AgentController(model, List.of(search), ToolPolicy.readOnly(), budgets())
            .run("honest?", null, AgentListener.NONE);

    assertThat(result.stopReason()).isEqualTo(AgentStopReason.VERIFICATION_FAILED);
    assertThat(result.answer()).isNull();
    assertThat(result.message()).contains("note:vault/other.md");
  }

  @Test
  void uncitedAnswerOverEvidenceIsVerificationFailed() throws Exception {
    controller.enqueue(openAiToolCall("s", "brain_search", "{}"), openAiAnswer("Trust me."));

    AgentResult result =
        new AgentController(
                model,
                List.of(ScriptedTools.Search.rows(COFFEE, "text")),
                ToolPolicy.readOnly(),
                budgets())
            .run("uncited", null, AgentListener.NONE);

    assertThat(result.stopReason()).isEqualTo(AgentStopReason.VERIFICATION_FAILED);
  }

  @Test
  void slowToolHitsTheDeadline() throws Exception {
    var slow = new ScriptedTools.Slow();
    controller.enqueue(openAiToolCall("s", "slow", "{}"));

    AgentResult result =
        new AgentController(
                model,
                List.of(slow),
                ToolPolicy.readOnly(),
                budgets().withDeadline(Duration.ofMillis(500)))
            .run("wait", null, AgentListener.NONE);

    assertThat(result.stopReason()).isEqualTo(AgentStopReason.TIMEOUT_EXCEEDED);
    assertThat(result.message()).contains("'slow'");
    assertThat(slow.interrupted.await(10, TimeUnit.SECONDS)).isTrue();
  }

  private static AgentBudgets budgets() {
    return AgentBudgets.defaults().withDeadline(Duration.ofSeconds(30));
  }

  private static List<AgentTool> tools(AgentTool search, ChatModel worker) {
    var out = new ArrayList<AgentTool>();
    out.add(search);
    out.addAll(WorkerTools.over(worker, WorkerTools.Budgets.defaults()));
    return out;
  }
}
