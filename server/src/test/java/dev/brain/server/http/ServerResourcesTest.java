package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.BrainConfig;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What held under the hostile probe and must keep holding: research streams cut off by their
 * clients leak no run slot, file descriptor or thread, and many requests at once are all answered
 * right.
 */
class ServerResourcesTest {
  private static final Path FDS = Path.of("/proc/self/fd");
  private static BrainServer server;

  @BeforeAll
  static void start() throws IOException {
    var config = BrainConfig.defaults(SampleVaultData.dataDir());
    server = BrainServer.start(config.withServer(config.server().withPort(0)));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static long openFiles() throws IOException {
    try (var fds = Files.list(FDS)) {
      return fds.count();
    }
  }

  private static int threads() {
    return ManagementFactory.getThreadMXBean().getThreadCount();
  }

  /** Starts a research stream and closes the connection after {@code millis}. */
  private static void cutOff(int millis) throws Exception {
    String body = "{\"question\":\"How often should I backflush the espresso machine?\"}";
    try (var socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      socket
          .getOutputStream()
          .write(
              ("POST /api/research/run HTTP/1.1\r\nHost: 127.0.0.1:"
                      + server.port()
                      + "\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n"
                      + "Content-Length: "
                      + body.length()
                      + "\r\n\r\n"
                      + body)
                  .getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
      Thread.sleep(millis);
    }
  }

  private static int activeRuns() {
    return Http.get(server.url(), "/api/health").json().path("active_runs").asInt(-1);
  }

  @Test
  void streamsCutOffByTheirClientsLeakNoSlotDescriptorOrThread() throws Exception {
    cutOff(200); // warm up: the model and the index readers are open from here on
    awaitIdle();
    long files = openFiles();
    int threads = threads();
    for (int i = 0; i < 40; i++) {
      cutOff(10 * (i % 8));
    }
    awaitIdle();
    assertThat(activeRuns()).isZero();
    assertThat(openFiles()).isLessThanOrEqualTo(files + 8);
    assertThat(threads()).isLessThanOrEqualTo(threads + 8);
  }

  @Test
  void twoHundredSearchesAtOnceAreAllAnsweredRight() throws Exception {
    String expected =
        Http.get(server.url(), "/api/search?q=backflush&limit=3")
            .json()
            .path("rows")
            .get(0)
            .path("source_key")
            .asText();
    var tasks = new ArrayList<Callable<String>>();
    for (int i = 0; i < 200; i++) {
      tasks.add(
          () -> {
            var reply = Http.get(server.url(), "/api/search?q=backflush&limit=3");
            return reply.status()
                + " "
                + reply.json().path("rows").get(0).path("source_key").asText();
          });
    }
    try (var pool = Executors.newFixedThreadPool(32)) {
      for (var future : pool.invokeAll(tasks)) {
        assertThat(future.get()).isEqualTo("200 " + expected);
      }
    }
  }

  /** Waits (at most 30 s) until no run holds a slot; cut-off runs end at their next stage. */
  private static void awaitIdle() throws InterruptedException {
    for (int i = 0; i < 300 && activeRuns() != 0; i++) {
      Thread.sleep(100);
    }
  }
}
