package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentCommandTest {
  @TempDir Path tmp;

  record Run(int code, String out, String err) {}

  private Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void demoRunsScriptedLoopOverSampleVaultToVerifiedCitedAnswer() throws Exception {
    var run = brain("--data", tmp.toString(), "agent", "--demo", "--json");

    assertThat(run.code()).as(run.err() + run.out()).isZero();
    // stdout is the JSON alone; the banner is on stderr.
    assertThat(run.err()).contains("SCRIPTED controller and worker");
    assertThat(run.out().strip()).startsWith("{").endsWith("}");
    JsonNode result = new ObjectMapper().readTree(run.out());
    assertThat(result.path("stop_reason").asText()).isEqualTo("final_answer");
    assertThat(result.path("answer").asText()).startsWith("(scripted demo)");
    // The answer opens with a whole sentence, not the piece of one the search excerpt cut.
    assertThat(result.path("answer").asText())
        .startsWith("(scripted demo) From your notes: ")
        .doesNotContain("From your notes: …");
    String cited = result.path("cited_keys").get(0).asText();
    assertThat(cited).startsWith("note:");
    assertThat(result.path("evidence_keys").toString()).contains(cited);
    assertThat(result.path("events").findValuesAsText("tool"))
        .containsExactly("brain_search", "summarize");
  }

  @Test
  void demoTimelineShowsEachToolCall() {
    var run = brain("--data", tmp.toString(), "agent", "--demo", "espresso grind size");

    assertThat(run.code()).as(run.err() + run.out()).isZero();
    assertThat(run.out())
        .contains("-> brain_search {\"query\":\"espresso grind size\"")
        .contains("-> summarize ")
        .contains("stop: final_answer after 3 turns, 2 tool calls")
        .contains("trace: ")
        .contains("trace show");
  }

  @Test
  void aSecondDemoReusesTheDemoIndexInsteadOfIndexingAgain() {
    var first = brain("--data", tmp.toString(), "agent", "--demo");
    var second = brain("--data", tmp.toString(), "agent", "--demo");

    assertThat(first.code()).as(first.err() + first.out()).isZero();
    assertThat(first.err()).contains("index: 0 records unchanged, 68 indexed");
    assertThat(second.code()).as(second.err() + second.out()).isZero();
    assertThat(second.err()).contains("index: 68 records unchanged, 0 indexed");
    assertThat(tmp.resolve("demo").resolve("index")).isDirectory();
  }

  @Test
  void deniedWorkerIsNotShownToTheModel() {
    var run = brain("--data", tmp.toString(), "agent", "--demo", "--deny", "summarize,extract");

    assertThat(run.out()).contains("tools: brain_research_pack").doesNotContain("summarize,");
    assertThat(run.out()).contains("x  summarize: tool 'summarize' is denied by policy");
  }

  @Test
  void withoutAModelTheAgentSaysWhatToConfigure() {
    var run = brain("--data", tmp.toString(), "agent", "what is there?");

    assertThat(run.code()).isNotZero();
    assertThat(run.err()).contains("no index at");
  }
}
