package dev.brain.server.http;

import static dev.brain.server.http.Http.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.BrainConfig;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The research endpoints over the sample vault with the built-in extractive synthesizer. */
class ResearchApiTest {
  private static final String BACKFLUSH = "How often should I backflush the espresso machine?";
  private static final String PDF_KEY = "src:bcd60653c442";
  private static final String NOTHING = "What did the lattice QCD seminar say about gluon mass?";

  private static BrainServer server;
  private static URI base;

  private static BrainConfig config() {
    return BrainConfig.defaults(SampleVaultData.dataDir());
  }

  @BeforeAll
  static void start() throws Exception {
    server =
        BrainServer.start(
            config()
                .withServer(config().server().withPort(0).withBodyLimits(64 * 1024, 1024 * 1024)));
    base = server.url();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String json(Object value) throws Exception {
    return HttpJson.MAPPER.writeValueAsString(value);
  }

  private static List<String> keys(JsonNode rows) {
    var keys = new ArrayList<String>();
    rows.forEach(r -> keys.add(r.path("source_key").asText()));
    return keys;
  }

  private JsonNode pack(String question) throws Exception {
    var reply =
        post(base, "/api/research", json(java.util.Map.of("question", question, "limit", 6)));
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json();
  }

  @Test
  void researchReturnsAPackWithPlanCoverageEvidenceAndNextSteps() throws Exception {
    JsonNode pack = pack(BACKFLUSH);
    assertThat(pack.path("schema_version").asText()).isEqualTo("research_pack.v1");
    assertThat(pack.path("query_plan").path("query_terms").size()).isPositive();
    assertThat(pack.path("coverage").path("evidence_count").asInt()).isPositive();
    assertThat(keys(pack.path("evidence"))).contains(PDF_KEY);
    assertThat(pack.has("next_steps")).isTrue();
  }

  @Test
  void aQuestionTheCorpusCannotAnswerIsA200WithNoEvidenceAndNextSteps() throws Exception {
    JsonNode pack = pack(NOTHING);
    assertThat(pack.path("evidence").size()).isZero();
    assertThat(pack.path("next_steps").size()).isPositive();
  }

  @Test
  void pinnedKeysJoinTheEvidenceAfterTheRankedRows() throws Exception {
    var body =
        json(
            java.util.Map.of(
                "question",
                BACKFLUSH,
                "limit",
                3,
                "pinned_keys",
                List.of("note:vault/running/Tempo runs.md", "note:vault/gone.md")));
    var reply = post(base, "/api/research", body);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    JsonNode evidence = reply.json().path("evidence");
    JsonNode last = evidence.get(evidence.size() - 1);
    assertThat(last.path("source_key").asText()).isEqualTo("note:vault/running/Tempo runs.md");
    assertThat(last.path("relationship").asText()).isEqualTo("pinned");
    assertThat(keys(evidence)).doesNotContain("note:vault/gone.md");
  }

  @Test
  void emptyQuestionIsA400AndBadJsonIsA400() {
    var empty = post(base, "/api/research", "{\"question\": \"  \"}");
    assertThat(empty.status()).isEqualTo(400);
    assertThat(empty.error().path("code").asText()).isEqualTo("empty_question");
    assertThat(empty.error().path("field").asText()).isEqualTo("question");
    var bad = post(base, "/api/research", "{\"question\": ");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.error().path("code").asText()).isEqualTo("bad_json");
  }

  @Test
  void unknownSourceTypeNegativeLimitAndTooManyPinsAre422() {
    var type = post(base, "/api/research", "{\"question\":\"coffee\",\"source_types\":[\"fax\"]}");
    assertThat(type.status()).isEqualTo(422);
    assertThat(type.error().path("field").asText()).isEqualTo("source_types");
    var limit = post(base, "/api/research", "{\"question\":\"coffee\",\"limit\":-1}");
    assertThat(limit.status()).isEqualTo(422);
    assertThat(limit.error().path("field").asText()).isEqualTo("limit");
    var pins = new ArrayList<String>();
    for (int i = 0; i < 25; i++) {
      pins.add("\"note:vault/" + i + ".md\"");
    }
    var tooMany =
        post(
            base,
            "/api/research",
            "{\"question\":\"coffee\",\"pinned_keys\":[" + String.join(",", pins) + "]}");
    assertThat(tooMany.status()).isEqualTo(422);
    assertThat(tooMany.error().path("field").asText()).isEqualTo("pinned_keys");
  }

  @Test
  void aBodyOverTheLimitIsA413() {
    var reply = post(base, "/api/research", "{\"question\":\"" + "espresso ".repeat(9000) + "\"}");
    assertThat(reply.status()).isEqualTo(413);
    assertThat(reply.error().path("code").asText()).isEqualTo("body_too_large");
  }

  @Test
  void synthesizeStreamsStartAnswerCitationsAndDoneFromAPostedPack() throws Exception {
    ObjectNode body = HttpJson.MAPPER.createObjectNode();
    body.set("research_pack", pack(BACKFLUSH));
    body.put("model", "");
    var stream = Sse.read(Sse.post(base.resolve("/api/research/synthesize"), body.toString()));
    assertThat(stream.status()).isEqualTo(200);
    assertThat(stream.contentType()).startsWith("text/event-stream");
    var names = stream.namesWithoutHeartbeats();
    assertThat(names.get(0)).isEqualTo("start");
    assertThat(names).contains("answer", "citation").doesNotContain("token", "error");
    assertThat(names.get(names.size() - 1)).isEqualTo("done");
    var done = stream.first("done").data();
    assertThat(done.path("answer_status").asText()).isIn("ok", "ok_truncated");
    assertThat(done.path("model").asText()).isEqualTo("extractive");
    assertThat(done.path("verification").path("passed").asBoolean()).isTrue();
    assertThat(keys(done.path("citations"))).contains(PDF_KEY);
    assertThat(stream.first("start").data().path("evidence_budget_chars").asInt())
        .isEqualTo(24_000);
  }

  @Test
  void synthesizeWithoutAPackOrWithAnotherSchemaIsA400() throws Exception {
    var missing = Http.send(Sse.post(base.resolve("/api/research/synthesize"), "{\"model\":\"\"}"));
    assertThat(missing.status()).isEqualTo(400);
    assertThat(missing.error().path("code").asText()).isEqualTo("invalid_pack");
    ObjectNode pack = (ObjectNode) pack(BACKFLUSH);
    pack.put("schema_version", "research_pack.v0");
    ObjectNode body = HttpJson.MAPPER.createObjectNode().set("research_pack", pack);
    var old = Http.send(Sse.post(base.resolve("/api/research/synthesize"), body.toString()));
    assertThat(old.status()).isEqualTo(400);
    assertThat(old.error().path("field").asText()).isEqualTo("research_pack");
  }

  @Test
  void aPackBodyOverTheLargerPackLimitIsA413TheClientGetsToRead() {
    // Three times the limit: far more than the socket buffers hold, so a server that answered
    // without reading the body would reset the connection under the still-uploading client.
    String huge = "{\"question\":\"" + "x".repeat(3 * 1024 * 1024) + "\"}";
    var reply = Http.send(Sse.post(base.resolve("/api/research/synthesize"), huge));
    assertThat(reply.status()).isEqualTo(413);
    assertThat(reply.error().path("message").asText()).contains("1048576");
  }

  @Test
  void runStreamsProgressThePackTheAnswerAndDone() throws Exception {
    var body = json(java.util.Map.of("question", BACKFLUSH, "max_chars_per_doc", 4000));
    var stream = Sse.read(Sse.post(base.resolve("/api/research/run"), body));
    assertThat(stream.status()).isEqualTo(200);
    var names = stream.namesWithoutHeartbeats();
    assertThat(names.get(0)).isEqualTo("progress");
    assertThat(names)
        .containsSubsequence("progress", "start", "answer", "citation", "pack", "done");
    assertThat(names).doesNotContain("error", "verification_failed", "token");
    var stages = new ArrayList<String>();
    stream.events().stream()
        .filter(e -> e.name().equals("progress"))
        .forEach(e -> stages.add(e.data().path("stage").asText()));
    assertThat(stages)
        .containsSubsequence(
            "planning", "retrieval", "inspection", "judge", "synthesis", "verification", "trace");
    var done = stream.first("done").data();
    assertThat(done.path("stop_reason").asText())
        .isIn("enough_evidence", "weak_evidence_budget_exhausted");
    assertThat(done.path("answer").asText()).contains("[" + PDF_KEY + "]");
    assertThat(done.path("verification").path("passed").asBoolean()).isTrue();
    assertThat(keys(stream.first("pack").data().path("evidence"))).contains(PDF_KEY);

    String runId = done.path("trace_id").asText();
    assertThat(runId).isNotBlank();
    var list = Http.get(base, "/api/research/traces?limit=500");
    assertThat(list.status()).isEqualTo(200);
    assertThat(list.json().path("traces").toString()).contains(runId);
    var trace = Http.get(base, "/api/research/traces/" + runId);
    assertThat(trace.status()).isEqualTo(200);
    assertThat(trace.json().path("question").asText()).isEqualTo(BACKFLUSH);
    assertThat(trace.json().path("surface").asText()).isEqualTo("web_api");
    var markdown = Http.get(base, "/api/research/traces/" + runId + "?format=md");
    assertThat(markdown.contentType()).startsWith("text/markdown");
    assertThat(markdown.body()).contains(BACKFLUSH);

    var diff = post(base, "/api/research/trace-diff", "{\"run_id\":\"" + runId + "\"}");
    assertThat(diff.status()).as(diff.body()).isEqualTo(200);
    assertThat(diff.json().path("unchanged").asBoolean()).as(diff.body()).isTrue();
    assertThat(diff.json().path("after").toString()).contains(PDF_KEY);
    // The same shape as `brain trace diff --json`.
    assertThat(diff.json().path("reordered").isArray()).isTrue();
    assertThat(diff.json().path("status_after").asText()).isEqualTo("ok");
  }

  @Test
  void unknownOrPathLikeTraceIdsAre404And400() {
    assertThat(Http.get(base, "/api/research/traces/20200101T000000Z-000000000000").status())
        .isEqualTo(404);
    assertThat(Http.get(base, "/api/research/traces/..%2F..%2Fetc").status()).isIn(400, 404);
    var diff = post(base, "/api/research/trace-diff", "{\"run_id\":\"/etc/passwd\"}");
    assertThat(diff.status()).isEqualTo(400);
    assertThat(diff.error().path("field").asText()).isEqualTo("run_id");
  }

  @Test
  void aQuestionWithoutASearchableWordIsA400BeforeAnyStream() throws Exception {
    var reply =
        Http.send(
            Sse.post(
                base.resolve("/api/research/run"),
                json(java.util.Map.of("question", "the of and"))));
    assertThat(reply.status()).as(reply.body()).isEqualTo(400);
    assertThat(reply.contentType()).startsWith("application/json");
    assertThat(reply.error().path("field").asText()).isEqualTo("question");
  }

  @Test
  void anUnknownSourceTypeOfARunIsA422BeforeAnyStream() throws Exception {
    var body = json(java.util.Map.of("question", BACKFLUSH, "source_types", List.of("fax")));
    var reply = Http.send(Sse.post(base.resolve("/api/research/run"), body));
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.error().path("field").asText()).isEqualTo("source_types");
  }

  @Test
  void runWithoutEvidenceEndsWithNoEvidenceAndNeverAnAnswer() throws Exception {
    var stream =
        Sse.read(
            Sse.post(
                base.resolve("/api/research/run"), json(java.util.Map.of("question", NOTHING))));
    assertThat(stream.namesWithoutHeartbeats()).contains("pack").endsWith("done");
    var done = stream.first("done").data();
    assertThat(done.path("answer_status").asText()).isEqualTo("no_evidence");
    assertThat(done.path("stop_reason").asText()).isEqualTo("no_evidence");
    assertThat(done.path("citations").size()).isZero();
  }

  @Test
  void runWithTheAnswerSwitchedOffIsEvidenceOnly() throws Exception {
    var body = json(java.util.Map.of("question", BACKFLUSH, "synthesize", false));
    var stream = Sse.read(Sse.post(base.resolve("/api/research/run"), body));
    assertThat(stream.namesWithoutHeartbeats()).doesNotContain("start", "answer").endsWith("done");
    assertThat(stream.first("done").data().path("retrieval_only").asBoolean()).isTrue();
  }

  @Test
  void aClientThatAcceptsOnlyJsonGetsTheFinishedRun() throws Exception {
    var reply =
        Http.send(
            Sse.post(
                    base.resolve("/api/research/run"),
                    json(java.util.Map.of("question", BACKFLUSH, "trace", false)))
                .setHeader("Accept", "application/json"));
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    var run = reply.json();
    assertThat(run.path("schema_version").asText()).isEqualTo("research_run.v1");
    assertThat(run.path("synthesis").path("model").asText()).isEqualTo("extractive");
    assertThat(run.path("pack").path("evidence").size()).isPositive();
    assertThat(run.path("trace_path").isNull()).isTrue();
  }

  @Test
  void withChatSaveTracesOffARunIsTracedOnlyWhenItAsks(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    var config = SampleVaultData.onAnyPort(SampleVaultData.copyTo(dir));
    try (var quiet = BrainServer.start(config.withChat(config.chat().withSaveTraces(false)))) {
      URI url = quiet.url();
      assertThat(Http.get(url, "/api/health").json().path("save_traces").asBoolean(true)).isFalse();
      JsonNode unsaid = runAsJson(url, java.util.Map.of("question", BACKFLUSH));
      assertThat(unsaid.path("trace_path").isNull()).isTrue();
      assertThat(dir.resolve(dev.brain.research.trace.TraceStore.DIRECTORY)).doesNotExist();
      JsonNode asked = runAsJson(url, java.util.Map.of("question", BACKFLUSH, "trace", true));
      assertThat(asked.path("trace_path").asText()).isNotEmpty();
    }
  }

  private static JsonNode runAsJson(URI url, java.util.Map<String, Object> body) throws Exception {
    var reply =
        Http.send(
            Sse.post(url.resolve("/api/research/run"), json(body))
                .setHeader("Accept", "application/json"));
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json();
  }

  @Test
  void aClientThatAcceptsNeitherEventStreamNorJsonGets406() {
    var reply =
        Http.send(
            Sse.post(base.resolve("/api/research/run"), "{\"question\":\"coffee\"}")
                .setHeader("Accept", "text/html"));
    assertThat(reply.status()).isEqualTo(406);
    assertThat(reply.error().path("code").asText()).isEqualTo("not_acceptable");
  }
}
