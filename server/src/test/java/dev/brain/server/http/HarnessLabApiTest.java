package dev.brain.server.http;

import static dev.brain.server.http.Http.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.evals.ResearchEvalCase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Harness Lab's endpoints on a private copy of the sample vault: list, open, re-run and compare
 * (with and without the planner), promote to a case file under {@code <data>/evals/cases}, and the
 * bad inputs of each.
 */
class HarnessLabApiTest {
  private static final String BACKFLUSH = "How often should I backflush the espresso machine?";

  @TempDir static Path data;

  private static BrainServer server;
  private static URI base;
  private static String runId;

  @BeforeAll
  static void startAndRunOnce() throws Exception {
    server = BrainServer.start(SampleVaultData.onAnyPort(SampleVaultData.copyTo(data)));
    base = server.url();
    var stream =
        Sse.read(
            Sse.post(
                base.resolve("/api/research/run"),
                HttpJson.MAPPER.writeValueAsString(Map.of("question", BACKFLUSH))));
    assertThat(stream.status()).isEqualTo(200);
    runId = stream.first("done").data().path("trace_id").asText();
    assertThat(runId).isNotBlank();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static Http.Reply postJson(String path, Map<String, Object> body) throws Exception {
    return post(base, path, HttpJson.MAPPER.writeValueAsString(body), server.clientToken());
  }

  @Test
  void theLabPageIsServedAndLinkedFromChatAndSearch() {
    var lab = Http.get(base, "/lab");
    assertThat(lab.status()).isEqualTo(200);
    assertThat(lab.body()).contains("Harness Lab", "/lab.js");
    assertThat(Http.get(base, "/").body()).contains("href=\"/lab\"");
    assertThat(Http.get(base, "/search").body()).contains("href=\"/lab\"");
  }

  @Test
  void theListingShowsQuestionTimeStatusAndStopReason() {
    var list = Http.get(base, "/api/research/traces");
    assertThat(list.status()).isEqualTo(200);
    JsonNode first = list.json().path("traces").get(0);
    assertThat(first.path("run_id").asText()).isEqualTo(runId);
    assertThat(first.path("question").asText()).isEqualTo(BACKFLUSH);
    assertThat(first.path("started_at").asText()).isNotBlank();
    assertThat(first.path("status").asText()).isEqualTo("ok");
    assertThat(first.path("stop_reason").asText()).isNotBlank();
  }

  @Test
  void aSavedRunOpensByIdOrPrefixAndAnUnknownOneIsA404() {
    var trace = Http.get(base, "/api/research/traces/" + runId.substring(0, 16));
    assertThat(trace.status()).isEqualTo(200);
    assertThat(trace.json().path("events")).isNotEmpty();
    assertThat(trace.json().path("pack").path("query_plan").has("query_family")).isTrue();
    var unknown = Http.get(base, "/api/research/traces/20200101T000000.000Z-000000000000");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.error().path("field").asText()).isEqualTo("run_id");
    assertThat(Http.get(base, "/api/research/traces?limit=0").status()).isEqualTo(422);
  }

  @Test
  void aRerunWithoutThePlannerIsComparedWithTheSavedRun() throws Exception {
    var diff = postJson("/api/research/trace-diff", Map.of("run_id", runId, "planner", false));
    assertThat(diff.status()).as(diff.body()).isEqualTo(200);
    JsonNode d = diff.json();
    assertThat(d.path("run_id").asText()).isEqualTo(runId);
    assertThat(d.path("before").size()).isPositive();
    // The sample vault and the extractive synthesizer answer the same way twice.
    assertThat(d.path("unchanged").asBoolean()).as(diff.body()).isTrue();
    assertThat(d.path("answer").path("changed").asBoolean()).isFalse();
    assertThat(d.path("answer").path("citations_after")).isNotEmpty();
    assertThat(d.path("stop_reason_after").asText())
        .isEqualTo(d.path("stop_reason_before").asText());
    // The re-run is not saved.
    assertThat(Http.get(base, "/api/research/traces").json().path("count").asInt()).isEqualTo(1);
  }

  @Test
  void promotingARunAppendsADraftCaseUnderTheDataDirectoryOnce() throws Exception {
    var saved =
        postJson(
            "/api/research/eval-cases",
            Map.of("run_id", runId, "file", "promote-test", "include_answer", true));
    assertThat(saved.status()).as(saved.body()).isEqualTo(201);
    Path file = data.resolve("evals/cases/promote-test.jsonl");
    assertThat(saved.json().path("file").asText()).isEqualTo("evals/cases/promote-test.jsonl");
    assertThat(saved.json().path("path").asText()).isEqualTo(file.toString());
    assertThat(saved.json().path("case_id").asText()).isEqualTo("run-" + runId);
    assertThat(saved.json().path("case").path("reviewed").asBoolean(true)).isFalse();
    assertThat(saved.json().path("case").path("required_text")).isNotEmpty();

    // The file is a case file `brain eval research --cases` reads.
    List<ResearchEvalCase> cases = ResearchEvalCase.read(List.of(file));
    assertThat(cases).hasSize(1);
    assertThat(cases.get(0).question()).isEqualTo(BACKFLUSH);
    assertThat(cases.get(0).isReviewed()).isFalse();

    var again =
        postJson("/api/research/eval-cases", Map.of("run_id", runId, "file", "promote-test"));
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.error().path("code").asText()).isEqualTo("case_exists");
    assertThat(Files.readAllLines(file)).hasSize(1);
  }

  @Test
  void promotingWithoutAFileNameWritesTheLabCaseFile() throws Exception {
    var saved = postJson("/api/research/eval-cases", Map.of("run_id", runId.substring(0, 20)));
    assertThat(saved.status()).as(saved.body()).isEqualTo(201);
    assertThat(data.resolve("evals/cases/lab.jsonl")).exists();
    assertThat(saved.json().path("case").has("required_text")).isFalse();
  }

  @Test
  void aMissingRunIdIsA400NamingTheField() throws Exception {
    for (String path : List.of("/api/research/trace-diff", "/api/research/eval-cases")) {
      var reply = post(base, path, "{}", server.clientToken());
      assertThat(reply.status()).as(path + ": " + reply.body()).isEqualTo(400);
      assertThat(reply.error().path("field").asText()).isEqualTo("run_id");
      assertThat(reply.body()).doesNotContain("Exception");
    }
  }

  @Test
  void anUnknownRunIdIsA404() throws Exception {
    for (String path : List.of("/api/research/trace-diff", "/api/research/eval-cases")) {
      var reply = postJson(path, Map.of("run_id", "20200101T000000.000Z-000000000000"));
      assertThat(reply.status()).as(path + ": " + reply.body()).isEqualTo(404);
      assertThat(reply.error().path("code").asText()).isEqualTo("not_found");
    }
  }

  @Test
  void aMalformedBodyIsA400AndAnUnknownOrMistypedFieldA422() throws Exception {
    for (String path : List.of("/api/research/trace-diff", "/api/research/eval-cases")) {
      var malformed = post(base, path, "{\"run_id\": ", server.clientToken());
      assertThat(malformed.status()).as(path).isEqualTo(400);
      assertThat(malformed.error().path("code").asText()).isEqualTo("bad_json");
      var unknown = postJson(path, Map.of("run_id", runId, "bogus", 1));
      assertThat(unknown.status()).as(path + ": " + unknown.body()).isEqualTo(422);
      assertThat(unknown.error().path("message").asText()).contains("bogus");
    }
    var mistyped = postJson("/api/research/trace-diff", Map.of("run_id", runId, "planner", 7));
    assertThat(mistyped.status()).as(mistyped.body()).isEqualTo(422);
    assertThat(mistyped.error().path("field").asText()).isEqualTo("planner");
  }

  @Test
  void aCaseFileNameThatIsAPathIsA422AndNothingIsWritten() throws Exception {
    for (String name : List.of("../../notes", "/tmp/x", "a/b", ".hidden")) {
      var reply = postJson("/api/research/eval-cases", Map.of("run_id", runId, "file", name));
      assertThat(reply.status()).as(name + ": " + reply.body()).isEqualTo(422);
      assertThat(reply.error().path("field").asText()).isEqualTo("file");
    }
    assertThat(data.resolve("notes.jsonl")).doesNotExist();
  }

  @Test
  void theGuardRefusesAPromotionFromAnotherSiteOrNotAsJson() {
    String body = "{\"run_id\":\"" + runId + "\"}";
    var crossSite =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/research/eval-cases"))
                .header("Content-Type", "application/json")
                .header("Origin", "https://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    assertThat(crossSite.status()).isEqualTo(403);
    var form =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/research/eval-cases"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("run_id=" + runId)));
    assertThat(form.status()).isEqualTo(415);
    assertThat(Http.get(base, "/api/research/eval-cases").status()).isEqualTo(405);
  }

  @Test
  void aTraceOfAVersionThisBrainDoesNotReadIsRefusedNamingTheVersion() throws Exception {
    Path json = data.resolve("research-runs").resolve(runId).resolve("run.json");
    String original = Files.readString(json);
    Files.writeString(json, original.replace("\"research_trace.v1\"", "\"research_trace.v9\""));
    try {
      for (String path :
          List.of(
              "/api/research/traces/" + runId, "/api/research/traces/" + runId + "?format=md")) {
        var reply = Http.get(base, path);
        assertThat(reply.status()).as(path).isEqualTo(409);
        assertThat(reply.error().path("message").asText())
            .contains("research_trace.v9", "research_trace.v1");
      }
      var diff = postJson("/api/research/trace-diff", Map.of("run_id", runId));
      assertThat(diff.status()).as(diff.body()).isEqualTo(409);
    } finally {
      Files.writeString(json, original);
    }
  }

  @Test
  void aPromotionWithoutTheServerTokenIsRefusedAndWritesNothing() {
    String body = "{\"run_id\":\"" + runId + "\",\"file\":\"no-token\"}";
    var none = post(base, "/api/research/eval-cases", body);
    assertThat(none.status()).as(none.body()).isEqualTo(401);
    assertThat(none.error().path("code").asText()).isEqualTo("unauthorized");
    var wrong = post(base, "/api/research/eval-cases", body, "not-the-token");
    assertThat(wrong.status()).isEqualTo(401);
    assertThat(data.resolve("evals/cases/no-token.jsonl")).doesNotExist();
  }

  @Test
  void theSessionTokenIsGivenToTheServersOwnPagesOnly() {
    String cookie = Http.signIn(server);
    var own =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/session"))
                .header("Cookie", cookie)
                .header("Sec-Fetch-Site", "same-origin"));
    assertThat(own.status()).isEqualTo(200);
    assertThat(own.json().path("token").asText()).isEqualTo(server.clientToken());
    var sameSite =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/session"))
                .header("Cookie", cookie)
                .header("Sec-Fetch-Site", "same-site"));
    assertThat(sameSite.status()).isEqualTo(403);
    assertThat(sameSite.body()).doesNotContain(server.clientToken());
  }
}
