package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.BrainConfig;
import dev.brain.models.chat.ChatConfig;
import dev.brain.models.chat.FakeHttpServer;
import dev.brain.models.chat.FakeOllamaServer;
import dev.brain.research.trace.TraceStore;
import dev.brain.research.trace.TraceSummary;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that asks a research run as an event stream and then reads nothing: the server drops it
 * after {@code server.write-timeout} instead of holding a thread and the run's events for it, and
 * the run goes on to its end, saves its trace and frees its slot for the next question.
 */
class SlowReaderStreamTest {
  private static final String MODEL = "fake";
  private static final String QUESTION = "How often should I backflush the espresso machine?";
  private static final String PDF_KEY = "src:bcd60653c442";

  /** About 2 MB of answer text: far more than the sockets' buffers hold for a reader that waits. */
  private static final List<String> LONG_ANSWER = longAnswer();

  @TempDir static Path data;

  private static FakeOllamaServer ollama;
  private static BrainServer server;

  @BeforeAll
  static void start() throws Exception {
    SampleVaultData.copyTo(data);
    ollama = FakeOllamaServer.start();
    var servers = ChatConfig.defaults().withOllamaUrl(ollama.baseUrl()).withOpenAiUrl(URI_REFUSED);
    BrainConfig defaults = SampleVaultData.onAnyPort(data);
    server =
        BrainServer.start(
            defaults
                .withChat(
                    defaults
                        .chat()
                        .withServers(servers)
                        .withModel("ollama/" + MODEL)
                        .withPlannerModel("extractive"))
                .withServer(
                    defaults
                        .server()
                        .withPort(0)
                        .withMaxConcurrentRuns(1)
                        .withWriteTimeout(Duration.ofMillis(500))));
    // The server's warm-up search takes a run slot for a moment: with one slot, a test's first
    // run must not meet it (it would be refused as busy under load).
    server.warmUpLanes(Duration.ofSeconds(30));
  }

  private static final java.net.URI URI_REFUSED =
      java.net.URI.create(FakeHttpServer.refusingUrl() + "/v1");

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (ollama != null) {
      ollama.close();
    }
  }

  private static List<String> longAnswer() {
    var tokens = new ArrayList<String>();
    String sentence = "Backflush the espresso machine with detergent every 200 shots. ";
    String chunk = String.join("", Collections.nCopies(32, sentence));
    for (int i = 0; i < 1_000; i++) {
      tokens.add(chunk);
    }
    tokens.add("[" + PDF_KEY + "].");
    return tokens;
  }

  @Test
  void aClientThatReadsNothingIsDroppedAndTheRunEndsAndIsSaved() throws Exception {
    ollama.enqueue(FakeOllamaServer.answer(MODEL, LONG_ANSWER, 900, 1_000));
    byte[] body = HttpJson.MAPPER.writeValueAsBytes(Map.of("question", QUESTION, "trace", true));
    String head =
        "POST /api/research/run HTTP/1.1\r\nHost: 127.0.0.1:"
            + server.url().getPort()
            + "\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n"
            + "Content-Length: "
            + body.length
            + "\r\n\r\n";
    try (var socket = new Socket()) {
      socket.setReceiveBufferSize(1024); // the kernel's smallest window: writes block soon
      socket.connect(new InetSocketAddress("127.0.0.1", server.url().getPort()), 5_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();

      // The run ends and saves its trace although nothing of its stream was read.
      TraceSummary saved = awaitTrace(Duration.ofSeconds(90));
      assertThat(saved).as("a saved trace of the run").isNotNull();
      assertThat(saved.status()).isIn("ok", "ok_truncated", "partial");

      // The server closed the connection it could not write to: reading it now ends.
      socket.setSoTimeout(30_000);
      assertThat(drainsToTheEnd(socket.getInputStream())).isTrue();
    }
    // Its slot is free: the next question runs (one run at a time on this server).
    ollama.enqueue(
        FakeOllamaServer.answer(MODEL, List.of("Every 200 shots [" + PDF_KEY + "]."), 9, 9));
    var next = Sse.read(Sse.post(server.url().resolve("/api/research/run"), question()));
    assertThat(next.namesWithoutHeartbeats()).endsWith("done");
  }

  private static String question() throws Exception {
    return HttpJson.MAPPER.writeValueAsString(Map.of("question", QUESTION, "trace", false));
  }

  private static TraceSummary awaitTrace(Duration within) throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    var store = new TraceStore(data);
    while (System.nanoTime() < deadline) {
      var done =
          store.list().stream()
              .filter(t -> QUESTION.equals(t.question()) && t.status() != null)
              .findFirst();
      if (done.isPresent()) {
        return done.get();
      }
      Thread.sleep(200);
    }
    return null;
  }

  /** Reads until the end of the stream; false if the read timed out first. */
  private static boolean drainsToTheEnd(InputStream in) throws Exception {
    byte[] buffer = new byte[64 * 1024];
    try {
      while (in.read(buffer) >= 0) {
        // keep reading what the server wrote before it gave up
      }
      return true;
    } catch (SocketException reset) {
      return true; // closed with unread data: a reset
    } catch (java.net.SocketTimeoutException e) {
      return false;
    }
  }
}
