package dev.brain.research.agent;

import static dev.brain.research.agent.ScriptedTools.JSON;
import static dev.brain.research.agent.ScriptedTools.openAiAnswer;
import static dev.brain.research.agent.ScriptedTools.openAiToolCall;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.research.run.RunId;
import dev.brain.research.trace.TraceStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Agent runs saved in the research trace store: listed like research runs, every call kept. */
class AgentTraceTest extends ScriptedControllerTestCase {
  private static final String COFFEE = "note:vault/coffee.md";

  @TempDir Path data;

  @Test
  void anAgentRunIsListedAndKeepsEveryToolCall() throws Exception {
    var search = ScriptedTools.Search.rows(COFFEE, "Grind finer when shots run fast.");
    controller.enqueue(
        openAiToolCall("call_1", "brain_search", "{\"query\":\"espresso grind\"}"),
        openAiToolCall("call_2", "no_such_tool", "{}"),
        openAiAnswer("Grind finer [" + COFFEE + "]."));
    var agent =
        new AgentController(model, List.of(search), ToolPolicy.readOnly(), AgentBudgets.defaults());
    Instant started = Instant.now();
    AgentResult result = agent.run("How do I fix a fast shot?", null, null);
    String runId = RunId.next(started);
    var store = new TraceStore(data);

    var written =
        AgentTrace.of(runId, "test", started, agent.visibleTools(null), result).save(store);

    var listed = store.list();
    assertThat(listed)
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.runId()).isEqualTo(runId);
              assertThat(s.surface()).isEqualTo("test");
              assertThat(s.question()).isEqualTo("How do I fix a fast shot?");
              assertThat(s.stopReason()).isEqualTo("final_answer");
              assertThat(s.status()).isEqualTo("ok");
              assertThat(s.error()).isNull();
            });
    JsonNode json = store.readJson(written.path());
    assertThat(json.path("schema_version").asText()).isEqualTo("agent_trace.v1");
    assertThat(json.path("kind").asText()).isEqualTo("agent");
    assertThat(json.path("metrics").path("artifact_bytes").asLong()).isEqualTo(written.bytes());
    JsonNode call = json.path("events").findParents("tool").get(0);
    assertThat(call.path("type").asText()).isEqualTo("tool_call");
    assertThat(call.path("tool").asText()).isEqualTo("brain_search");
    assertThat(JSON.readTree(call.path("arguments").asText()).path("query").asText())
        .isEqualTo("espresso grind");
    assertThat(call.path("result_chars").asInt()).isPositive();
    assertThat(call.has("elapsed_ms")).isTrue();
    assertThat(json.path("events").findValuesAsText("tool"))
        .containsExactly("brain_search", "no_such_tool");
    String md = store.readMarkdown(written.path());
    assertThat(md)
        .contains("# Agent run " + runId)
        .contains("| 1 | brain_search | `{\"query\":\"espresso grind\"}` |")
        .contains("| no_such_tool |")
        .contains("refused:")
        .contains("Cited: " + COFFEE);
  }
}
