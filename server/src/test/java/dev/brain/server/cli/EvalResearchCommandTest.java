package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brain eval propose} and {@code brain eval research}: a saved run becomes a draft case, the
 * reviewed case passes, a failing one exits 1 with a readable report, and bad input is a usage
 * error naming what is wrong.
 */
class EvalResearchCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path tmp;
  static String data;

  record Run(int code, String out, String err) {}

  private static Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  @BeforeAll
  static void indexAVault() throws IOException {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(
        vault.resolve("descaling.md"),
        "# Descaling\n\nDescale the espresso machine every eight weeks with citric acid.\n");
    Files.writeString(
        vault.resolve("tomatoes.md"),
        "---\ntags: [garden]\n---\n# Tomatoes\n\nSungold gave 4.2 kg per plant in 2024.\n");
    data = tmp.resolve("data").toString();
    Run index = brain("--data", data, "index", vault.toString());
    assertThat(index.code()).as(index.err()).isZero();
  }

  @Test
  void proposeEditAndEvalRoundTrip() throws IOException {
    Run research = brain("--data", data, "research", "How often should I descale the machine?");
    assertThat(research.code()).as(research.err()).isZero();

    Path cases = tmp.resolve("cases.jsonl");
    Run propose =
        brain(
            "--data",
            data,
            "eval",
            "propose",
            "--from-trace",
            "latest",
            "--output",
            cases.toString());
    assertThat(propose.code()).as(propose.err()).isZero();
    List<String> lines = Files.readAllLines(cases);
    assertThat(lines).hasSize(1);
    JsonNode draft = JSON.readTree(lines.get(0));
    assertThat(draft.path("schema_version").asText()).isEqualTo("research_eval_case.v1");
    assertThat(draft.path("reviewed").asBoolean(true)).isFalse();
    assertThat(draft.path("answer_status").asText()).isEqualTo("ok");
    assertThat(draft.path("stop_reason").asText()).isEqualTo("enough_evidence");
    assertThat(draft.path("citation_keys")).isNotEmpty();
    assertThat(draft.has("required_text")).isFalse();

    Run withAnswer =
        brain("--data", data, "eval", "propose", "--from-trace", "latest", "--include-answer");
    assertThat(withAnswer.code()).as(withAnswer.err()).isZero();
    assertThat(JSON.readTree(withAnswer.out()).path("required_text").toString())
        .contains("eight weeks");

    // The edit a reviewer makes: a name, reviewed, and a phrase the answer must keep.
    ObjectNode edited = (ObjectNode) draft;
    edited.put("id", "descale-interval");
    edited.put("reviewed", true);
    edited.putArray("required_text").add("citric acid");
    Files.writeString(cases, JSON.writeValueAsString(edited) + "\n");
    Run pass = brain("--data", data, "eval", "research", "--cases", cases.toString());
    assertThat(pass.code()).as(pass.out() + pass.err()).isZero();
    assertThat(pass.out())
        .contains("note: planner-on runs skipped: no planner model is configured")
        .endsWith("1 cases, 1 runs, 1 passed, 0 failed\n");

    edited.put("id", "descale-broken");
    edited.putArray("required_text").add("vinegar");
    edited.putArray("expected_top_keys").add("x:missing");
    Path failing = tmp.resolve("failing.jsonl");
    Files.writeString(failing, JSON.writeValueAsString(edited) + "\n");
    Run fail =
        brain(
            "--data", data, "eval", "research", "--cases", failing.toString(), "--planner", "off");
    assertThat(fail.code()).isEqualTo(1);
    assertThat(fail.out())
        .contains("FAIL descale-broken [planner-off]")
        .contains("  required_text: expected vinegar; actual answer lacks it: ")
        .contains("  expected_top_keys: expected x:missing in top 3; actual not in evidence")
        .endsWith("1 cases, 1 runs, 0 passed, 1 failed\n");

    Run json = brain("--data", data, "eval", "research", "--cases", failing.toString(), "--json");
    assertThat(json.code()).isEqualTo(1);
    JsonNode report = JSON.readTree(json.out());
    assertThat(report.path("passed").asBoolean(true)).isFalse();
    assertThat(report.path("results").get(0).path("failures").get(0).path("field").asText())
        .isEqualTo("expected_top_keys");
  }

  @Test
  void aMalformedCaseFileIsAUsageErrorWithFileAndLine() throws IOException {
    Path bad = tmp.resolve("bad.jsonl");
    Files.writeString(
        bad,
        "{\"schema_version\":\"research_eval_case.v1\",\"id\":\"a\",\"question\":\"q?\"}\n"
            + "{\"schema_version\": \"research_eval_case.v1\", \"id\": \n");
    Run run = brain("--data", data, "eval", "research", "--cases", bad.toString());
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err()).startsWith("brain: " + bad + ":2: not a JSON case object");
  }

  @Test
  void anUnknownFieldIsRejectedWithItsName() throws IOException {
    Path bad = tmp.resolve("unknown.jsonl");
    Files.writeString(
        bad,
        "{\"schema_version\":\"research_eval_case.v1\",\"id\":\"a\",\"question\":\"q?\","
            + "\"must_cite\":[\"k\"]}\n");
    Run run = brain("--data", data, "eval", "research", "--cases", bad.toString());
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err()).startsWith("brain: " + bad + ":1: case 'a': unknown field 'must_cite'");
  }

  @Test
  void plannerOnWithoutAPlannerModelAndAnUnknownModeAreUsageErrors() throws IOException {
    Path one = tmp.resolve("one.jsonl");
    Files.writeString(
        one, "{\"schema_version\":\"research_eval_case.v1\",\"id\":\"a\",\"question\":\"q?\"}\n");
    Run on =
        brain("--data", data, "eval", "research", "--cases", one.toString(), "--planner", "on");
    assertThat(on.code()).isEqualTo(2);
    assertThat(on.err()).contains("--planner on needs a planner model");
    Run odd =
        brain("--data", data, "eval", "research", "--cases", one.toString(), "--planner", "maybe");
    assertThat(odd.code()).isEqualTo(2);
    assertThat(odd.err()).contains("unknown planner mode 'maybe'; use on, off or both");
  }

  @Test
  void aMissingTraceIdIsAClearError() {
    Run run = brain("--data", data, "eval", "propose", "--from-trace", "no-such-run");
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err())
        .startsWith("brain: no saved run 'no-such-run' in ")
        .contains("list them with 'brain trace list'");
  }

  @Test
  void aSavedChatConversationBecomesDraftCasesThatPassOnceReviewed() throws IOException {
    // The Chat's saved session: two answered turns and one that failed (no case, but its
    // question is still an earlier question of the next turn).
    Path saved = tmp.resolve("chat-session.json");
    Files.writeString(
        saved,
        """
        {"turns": [
          {"id": 1, "question": "How often should I descale the machine?", "status": "done",
           "answerStatus": "ok", "citations": ["note:vault/descaling.md"], "trace": "r1",
           "answer": "Every eight weeks [note:vault/descaling.md]",
           "pack": {"evidence": [{"source_key": "note:vault/descaling.md"}]}},
          {"id": 2, "question": "and with what?", "status": "error"},
          {"id": 3, "question": "Which tomato gave the most fruit per plant in 2024?",
           "status": "done", "answerStatus": "ok", "citations": ["note:vault/tomatoes.md"],
           "pack": {"evidence": [{"source_key": "note:vault/tomatoes.md"}]}}],
         "pins": [], "next": 4}
        """);
    Path cases = tmp.resolve("conversation-cases.jsonl");
    Run propose =
        brain(
            "--data",
            data,
            "eval",
            "propose",
            "--from-conversation",
            saved.toString(),
            "--output",
            cases.toString());
    assertThat(propose.code()).as(propose.err()).isZero();
    assertThat(propose.err()).contains("2 draft cases appended to " + cases);

    List<String> lines = Files.readAllLines(cases);
    assertThat(lines).hasSize(2);
    JsonNode first = JSON.readTree(lines.get(0));
    assertThat(first.path("id").asText()).isEqualTo("conv-chat-session-1");
    assertThat(first.path("reviewed").asBoolean(true)).isFalse();
    assertThat(first.path("citation_keys").get(0).asText()).isEqualTo("note:vault/descaling.md");
    assertThat(first.path("answer_status").asText()).isEqualTo("ok");
    assertThat(first.path("notes").asText()).contains("turn 1 (run r1)");
    assertThat(first.has("required_text")).as("answers are never copied").isFalse();
    JsonNode third = JSON.readTree(lines.get(1));
    assertThat(third.path("id").asText()).isEqualTo("conv-chat-session-3");
    assertThat(third.path("prior_questions"))
        .extracting(JsonNode::asText)
        .containsExactly("How often should I descale the machine?", "and with what?");
    assertThat(third.path("expected_top_keys").get(0).asText()).isEqualTo("note:vault/tomatoes.md");

    // Reviewed as they are, the drafts hold against the index they came from.
    Files.write(
        cases,
        lines.stream().map(l -> l.replace("\"reviewed\":false", "\"reviewed\":true")).toList());
    Run eval =
        brain("--data", data, "eval", "research", "--cases", cases.toString(), "--planner", "off");
    assertThat(eval.code()).as(eval.out() + eval.err()).isZero();
    assertThat(eval.out()).contains("2 cases, 2 runs, 2 passed, 0 failed");

    Run both =
        brain(
            "--data",
            data,
            "eval",
            "propose",
            "--from-conversation",
            saved.toString(),
            "--from-trace",
            "latest");
    assertThat(both.code()).isEqualTo(2);
    assertThat(both.err()).contains("give one of --from-trace RUN or --from-conversation FILE");
    Path notAConversation = Files.writeString(tmp.resolve("nothing.json"), "{\"pins\": []}");
    Run bad =
        brain(
            "--data", data, "eval", "propose", "--from-conversation", notAConversation.toString());
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).startsWith("brain: nothing.json: not a saved conversation");
  }
}
