package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.BrainConfig;
import dev.brain.models.chat.ChatConfig;
import dev.brain.models.chat.FakeHttpServer;
import dev.brain.models.chat.FakeOllamaServer;
import dev.brain.models.chat.FakeResponse;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The SSE sequences of {@code /api/research/run} against a fake Ollama that speaks the real wire
 * protocol: streamed tokens, a model failing mid-stream, an answer failing verification, an
 * unavailable model before the stream, heartbeats, a client disconnect and the run cap.
 */
class ResearchStreamTest {
  private static final String MODEL = "fake";
  private static final String QUESTION = "How often should I backflush the espresso machine?";
  private static final String PDF_KEY = "src:bcd60653c442";

  private static FakeOllamaServer ollama;
  private static BrainServer server;
  private static URI base;

  @BeforeAll
  static void start() throws Exception {
    ollama = FakeOllamaServer.start();
    var chat =
        ChatConfig.defaults()
            .withOllamaUrl(ollama.baseUrl())
            .withOpenAiUrl(URI.create(FakeHttpServer.refusingUrl() + "/v1"));
    var defaults = BrainConfig.defaults(SampleVaultData.dataDir());
    server =
        BrainServer.start(
            defaults
                // The answer model alone: these tests are about the answer's stream; planning
                // with the model is ModelPlannerSurfacesTest's.
                .withChat(
                    defaults
                        .chat()
                        .withServers(chat)
                        .withModel("ollama/" + MODEL)
                        .withPlannerModel("extractive"))
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
    if (ollama != null) {
      ollama.close();
    }
  }

  private static String body(Object... extra) throws Exception {
    var map = new java.util.LinkedHashMap<String, Object>();
    map.put("question", QUESTION);
    for (int i = 0; i < extra.length; i += 2) {
      map.put((String) extra[i], extra[i + 1]);
    }
    return HttpJson.MAPPER.writeValueAsString(map);
  }

  private static Sse.Stream2 run(Object... extra) throws Exception {
    return Sse.read(Sse.post(base.resolve("/api/research/run"), body(extra)));
  }

  @Test
  void aStreamingModelSendsTokensThenCitationsThenDoneNamingTheModel() throws Exception {
    ollama.enqueue(
        FakeOllamaServer.answer(
            MODEL,
            List.of("Backflush with detergent every 200 shots ", "[" + PDF_KEY + "]."),
            900,
            12));
    var stream = run();
    var names = stream.namesWithoutHeartbeats();
    assertThat(names).containsSubsequence("start", "token", "token", "citation", "pack", "done");
    assertThat(names).doesNotContain("answer", "error", "verification_failed");
    assertThat(stream.first("start").data().path("model").asText()).isEqualTo("ollama/" + MODEL);
    var done = stream.first("done").data();
    assertThat(done.path("model").asText()).isEqualTo("ollama/" + MODEL);
    assertThat(done.path("tool").asText()).isEqualTo("ollama");
    assertThat(done.path("answer").asText()).contains("[" + PDF_KEY + "]");
    assertThat(ollama.lastRequest().body()).contains(PDF_KEY); // the evidence went to the model
  }

  @Test
  void anAnswerCitingAKeyOutsideTheEvidenceEndsAsVerificationFailedNeverDone() throws Exception {
    ollama.enqueue(
        FakeOllamaServer.answer(
            MODEL, List.of("Backflush weekly [note:vault/coffee/Imaginary machine.md]."), 900, 9));
    var stream = run();
    var names = stream.namesWithoutHeartbeats();
    assertThat(names.get(names.size() - 1)).isEqualTo("verification_failed");
    assertThat(names).doesNotContain("done", "error");
    var failed = stream.first("verification_failed").data();
    assertThat(failed.path("stop_reason").asText()).isEqualTo("verification_failed");
    assertThat(failed.path("failures").toString())
        .contains("note:vault/coffee/Imaginary machine.md");
  }

  @Test
  void aModelFailingMidStreamIsATerminalErrorAfterTheEvidenceWasSent() throws Exception {
    ollama.enqueue(
        FakeOllamaServer.stream()
            .write(FakeOllamaServer.tokenLine(MODEL, "Backflush "))
            .write("{this is not json\n"));
    var stream = run();
    var names = stream.namesWithoutHeartbeats();
    assertThat(names).containsSubsequence("start", "token", "pack", "error");
    assertThat(names.get(names.size() - 1)).isEqualTo("error");
    assertThat(names).doesNotContain("done");
    var error = stream.first("error").data();
    assertThat(error.path("answer_status").asText()).isEqualTo("error");
    assertThat(error.path("code").asText()).isEqualTo("model_error");
  }

  @Test
  void aModelTheServerDoesNotHaveIsUnavailableInTheStream() throws Exception {
    ollama.enqueue(FakeOllamaServer.modelNotFound(MODEL));
    var stream = run();
    var error = stream.first("error").data();
    assertThat(error.path("answer_status").asText()).isEqualTo("unavailable");
    assertThat(error.path("code").asText()).isEqualTo("model_unavailable");
    assertThat(stream.namesWithoutHeartbeats()).doesNotContain("done");
  }

  @Test
  void anUnreachableModelStreamsTheEvidenceAndSaysWhyThereIsNoAnswer() throws Exception {
    var stream = run("model", "openai/gpt");
    assertThat(stream.namesWithoutHeartbeats()).containsSubsequence("pack", "done");
    assertThat(stream.namesWithoutHeartbeats()).doesNotContain("error", "answer", "token");
    assertThat(stream.first("pack").data().path("evidence").size()).isPositive();
    var done = stream.first("done").data();
    assertThat(done.path("retrieval_only").asBoolean()).isTrue();
    assertThat(done.path("stop_reason").asText()).isEqualTo("synthesis_unavailable");
    assertThat(done.path("model_unavailable").asText())
        .contains("openai/gpt is unavailable", "start the model server or choose another model");
  }

  @Test
  void anUnreachableModelIsA503ForASynthesisOfAGivenPack() throws Exception {
    var pack = Http.post(base, "/api/research", body());
    var synth =
        HttpJson.MAPPER
            .createObjectNode()
            .put("model", "openai/gpt")
            .set("research_pack", pack.json());
    var synthReply =
        Http.send(Sse.post(base.resolve("/api/research/synthesize"), synth.toString()));
    assertThat(synthReply.status()).isEqualTo(503);
    assertThat(synthReply.error().path("answer_status").asText()).isEqualTo("unavailable");
  }

  @Test
  void aSlowModelIsBridgedWithHeartbeats() throws Exception {
    ollama.enqueue(
        FakeOllamaServer.stream()
            .pause(Duration.ofMillis(700))
            .write(FakeOllamaServer.tokenLine(MODEL, "Every 200 shots [" + PDF_KEY + "]."))
            .write(FakeOllamaServer.doneLine(MODEL, 900, 8)));
    var names = run().names();
    int start = names.indexOf("start");
    int token = names.indexOf("token");
    assertThat(names.subList(start, token)).contains("heartbeat");
    assertThat(names.get(names.size() - 1)).isEqualTo("done");
  }

  @Test
  void aClientDisconnectCancelsTheModelCallAndFreesTheOnlyRunSlot() throws Exception {
    FakeResponse slow = FakeOllamaServer.stream();
    for (int i = 0; i < 200; i++) {
      slow =
          slow.write(FakeOllamaServer.tokenLine(MODEL, "word" + i + " "))
              .pause(Duration.ofMillis(100));
    }
    ollama.enqueue(slow.write(FakeOllamaServer.doneLine(MODEL, 900, 200)));
    var logged = new java.util.concurrent.CopyOnWriteArrayList<java.util.logging.LogRecord>();
    var capture =
        new java.util.logging.Handler() {
          @Override
          public void publish(java.util.logging.LogRecord record) {
            logged.add(record);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    java.util.logging.Logger.getLogger("").addHandler(capture);
    var reader = Sse.open(Sse.post(base.resolve("/api/research/run"), body()));
    for (var e = Sse.next(reader); e != null && !e.name().equals("token"); e = Sse.next(reader)) {
      // read up to the first token: the model is mid-answer
    }

    var busy = Http.send(Sse.post(base.resolve("/api/research/run"), body()));
    assertThat(busy.status()).isEqualTo(503);
    assertThat(busy.error().path("code").asText()).isEqualTo("busy");
    assertThat(busy.headers().firstValue("retry-after")).isPresent();

    reader.close(); // the user closed the tab
    assertThat(ollama.awaitClientDisconnect(Duration.ofSeconds(10)))
        .as("the model call was cancelled")
        .isTrue();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    int active = 1;
    while (active > 0 && System.nanoTime() < deadline) {
      active = Http.get(base, "/api/health").json().path("active_runs").asInt();
      Thread.sleep(50);
    }
    assertThat(active).as("the run ended and released its slot").isZero();
    java.util.logging.Logger.getLogger("").removeHandler(capture);
    assertThat(logged.stream().filter(r -> r.getThrown() != null).map(r -> r.getMessage()))
        .as("a client that went away is a log line, not a stack trace")
        .isEmpty();
    var newest = Http.get(base, "/api/research/traces?limit=1").json().path("traces").get(0);
    assertThat(newest.path("stop_reason").asText()).isEqualTo("cancelled");
  }

  @Test
  void theEvidenceOnlyRunNeedsNoModel() throws Exception {
    var stream = run("synthesize", false, "model", "openai/gpt");
    assertThat(stream.status()).isEqualTo(200);
    assertThat(stream.namesWithoutHeartbeats()).endsWith("done");
    assertThat(Map.of("n", stream.first("pack").data().path("evidence").size()).get("n"))
        .isPositive();
  }
}
