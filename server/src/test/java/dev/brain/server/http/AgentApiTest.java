package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.BrainConfig;
import dev.brain.models.chat.FakeOpenAiServer;
import dev.brain.models.chat.FakeResponse;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/agent/run} against a real server over the sample vault, its controller a fake
 * OpenAI-compatible server speaking the real streamed tool-call protocol.
 */
class AgentApiTest {
  private static final String MODEL = "controller-test";

  private static FakeOpenAiServer openai;
  private static BrainServer server;
  private static URI base;

  @BeforeAll
  static void start() throws Exception {
    openai = FakeOpenAiServer.start();
    var defaults = BrainConfig.defaults(SampleVaultData.dataDir());
    server =
        BrainServer.start(
            defaults
                .withChat(defaults.chat().withServers(openai.config()))
                .withAgent(defaults.agent().withModel("openai/" + MODEL))
                .withServer(
                    defaults
                        .server()
                        .withPort(0)
                        .withHeartbeatInterval(Duration.ofMillis(150))
                        .withMaxConcurrentRuns(1)));
    // The server's warm-up search takes a run slot for a moment: with one slot, a test's first
    // run must not meet it (it would be refused as busy under load).
    server.warmUpLanes(Duration.ofSeconds(30));
    base = server.url();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (openai != null) {
      openai.close();
    }
  }

  private static Sse.Stream2 run(String body) {
    return Sse.read(Sse.post(base.resolve("/api/agent/run"), body));
  }

  /** The first row's key of a search the agent's brain_search makes too. */
  private static String topKey(String query) {
    return Http.get(base, "/api/search?q=" + Http.enc(query))
        .json()
        .path("rows")
        .get(0)
        .path("source_key")
        .asText();
  }

  static FakeResponse toolCall(String id, String name, String arguments) {
    int half = arguments.length() / 2;
    return FakeOpenAiServer.stream()
        .write(FakeOpenAiServer.event(FakeOpenAiServer.roleChunk(MODEL)))
        .write(
            FakeOpenAiServer.event(
                FakeOpenAiServer.toolCallChunk(MODEL, 0, id, name, arguments.substring(0, half))))
        .write(
            FakeOpenAiServer.event(
                FakeOpenAiServer.toolCallChunk(MODEL, 0, null, null, arguments.substring(half))))
        .write(FakeOpenAiServer.event(FakeOpenAiServer.finishChunk(MODEL, "tool_calls")))
        .write(FakeOpenAiServer.DONE_EVENT);
  }

  @Test
  void aRunStreamsEachToolCallThenTheVerifiedAnswerAndIsTraced() {
    String key = topKey("espresso grind");
    openai.enqueue(
        toolCall("call_1", "brain_search", "{\"query\":\"espresso grind\"}"),
        FakeOpenAiServer.answer(MODEL, List.of("Grind finer ", "[" + key + "]."), 100, 20));

    var stream = run("{\"task\":\"How fine should I grind for espresso?\",\"surface\":\"test\"}");

    assertThat(stream.status()).as(stream.rawBody()).isEqualTo(200);
    assertThat(stream.contentType()).startsWith("text/event-stream");
    var names = stream.namesWithoutHeartbeats();
    assertThat(names.get(0)).isEqualTo("start");
    assertThat(names).endsWith("answer", "done").contains("progress");
    JsonNode start = stream.first("start").data();
    assertThat(start.path("controller").asText()).isEqualTo("openai/" + MODEL);
    assertThat(start.path("tools").toString()).contains("brain_search", "summarize");
    JsonNode call =
        stream.events().stream()
            .filter(e -> e.name().equals("progress"))
            .map(Sse.Event::data)
            .filter(d -> d.path("type").asText().equals("tool_call"))
            .findFirst()
            .orElseThrow();
    assertThat(call.path("tool").asText()).isEqualTo("brain_search");
    assertThat(call.path("arguments").asText()).contains("espresso grind");
    assertThat(call.path("result_chars").asInt()).isPositive();
    assertThat(call.has("elapsed_ms")).isTrue();
    JsonNode done = stream.first("done").data();
    assertThat(done.path("stop_reason").asText()).isEqualTo("final_answer");
    assertThat(done.path("cited_keys").get(0).asText()).isEqualTo(key);
    assertThat(stream.first("answer").data().path("text").asText()).contains(key);

    String traceId = done.path("trace_id").asText();
    var trace = Http.get(base, "/api/research/traces/" + traceId);
    assertThat(trace.status()).isEqualTo(200);
    assertThat(trace.json().path("kind").asText()).isEqualTo("agent");
    assertThat(trace.json().path("surface").asText()).isEqualTo("test");
    assertThat(trace.json().path("events").findValuesAsText("tool")).contains("brain_search");
    assertThat(Http.get(base, "/api/research/traces").body()).contains(traceId);
  }

  @Test
  void healthTellsTheChatThatAnAgentModelIsConfigured() {
    JsonNode agent = Http.get(base, "/api/health").json().path("agent");
    assertThat(agent.path("available").asBoolean()).isTrue();
    assertThat(agent.path("model").asText()).isEqualTo("openai/" + MODEL);
  }

  @Test
  void anAnswerCitingAKeyNoToolReturnedIsVerificationFailed() {
    openai.enqueue(
        FakeOpenAiServer.answer(MODEL, List.of("Made up [note:vault/nowhere.md]."), 100, 20));

    var stream = run("{\"task\":\"Anything?\"}");

    assertThat(stream.namesWithoutHeartbeats()).endsWith("verification_failed");
    assertThat(stream.names()).doesNotContain("answer", "done");
  }

  @Test
  void anAgentTurnContinuingAConversationGivesTheModelTheEarlierTurnsAsContext() throws Exception {
    String key = topKey("espresso grind");
    openai.enqueue(
        FakeOpenAiServer.answer(MODEL, List.of("Grind finer for it ", "[" + key + "]."), 100, 20));
    int before = openai.requests().size();

    var stream =
        run(
            "{\"task\":\"and for the V60?\",\"conversation\":[{\"question\":"
                + "\"What grind size do I use for espresso?\",\"cited_keys\":[\""
                + key
                + "\"]}]}");

    // The earlier key is context, not proof: the answer cites it although no tool returned it
    // in this run, so verification refuses it.
    assertThat(stream.namesWithoutHeartbeats()).endsWith("verification_failed");
    String sent = openai.requests().get(before).body();
    assertThat(sent)
        .contains("and for the V60?")
        .contains("Earlier in this conversation")
        .contains("What grind size do I use for espresso?")
        .contains(key);

    var tooMany = new StringBuilder("{\"task\":\"x\",\"conversation\":[");
    for (int i = 0; i < 11; i++) {
      tooMany.append(i == 0 ? "" : ",").append("{\"question\":\"q").append(i).append("\"}");
    }
    var refused =
        Http.send(Sse.post(base.resolve("/api/agent/run"), tooMany.append("]}").toString()));
    assertThat(refused.status()).isEqualTo(422);
    assertThat(refused.json().path("error").path("field").asText()).isEqualTo("conversation");
  }

  @Test
  void badRequestsAreRefusedBeforeAnyStream() {
    var missing = Http.send(Sse.post(base.resolve("/api/agent/run"), "{}"));
    assertThat(missing.status()).isEqualTo(400);
    assertThat(missing.json().path("error").path("field").asText()).isEqualTo("task");
    var unknown =
        Http.send(Sse.post(base.resolve("/api/agent/run"), "{\"task\":\"x\",\"tools\":[]}"));
    assertThat(unknown.status()).isBetween(400, 422);
    assertThat(unknown.body()).contains("tools").doesNotContain("Exception");
    var turns =
        Http.send(Sse.post(base.resolve("/api/agent/run"), "{\"task\":\"x\",\"max_turns\":0}"));
    assertThat(turns.status()).isEqualTo(422);
    var noStream =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/agent/run"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"task\":\"x\"}")));
    assertThat(noStream.status()).isEqualTo(406);
  }

  @Test
  void theRequestGuardCoversIt() {
    var foreign =
        Http.send(
            Sse.post(base.resolve("/api/agent/run"), "{\"task\":\"x\"}")
                .header("Origin", "http://evil.example"));
    assertThat(foreign.status()).isEqualTo(403);
    assertThat(openai.requests()).noneMatch(r -> r.body().contains("\"content\":\"x\""));
  }
}
