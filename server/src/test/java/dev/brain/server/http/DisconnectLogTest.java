package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.BrainConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Clients that reset their connection while a response is being written (a page, a JSON search, a
 * research stream) leave one INFO line each in the server's log, never a stack trace.
 */
class DisconnectLogTest {
  private static final List<LogRecord> RECORDS = new CopyOnWriteArrayList<>();
  private static final Logger ROOT = Logger.getLogger("");
  private static final Handler CAPTURE =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          RECORDS.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  private static BrainServer server;

  @BeforeAll
  static void start() throws IOException {
    var config = BrainConfig.defaults(SampleVaultData.dataDir());
    server = BrainServer.start(config.withServer(config.server().withPort(0)));
    CAPTURE.setLevel(java.util.logging.Level.ALL);
    ROOT.addHandler(CAPTURE);
  }

  @AfterAll
  static void stop() {
    ROOT.removeHandler(CAPTURE);
    server.close();
  }

  /** Sends {@code request}, reads nothing, and resets the connection after {@code millis}. */
  private static void resetAfter(String request, int millis) throws Exception {
    try (var socket = new Socket()) {
      socket.setReceiveBufferSize(1024);
      socket.connect(
          new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()));
      socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
      Thread.sleep(millis);
      socket.setSoLinger(true, 0); // close with RST
    } catch (IOException e) {
      // the server may have closed first
    }
  }

  @Test
  void aClientResettingMidResponseLeavesOneLineAndNoStackTrace() throws Exception {
    String host = "Host: 127.0.0.1:" + server.port() + "\r\n";
    String body = "{\"question\":\"How often should I backflush the espresso machine?\"}";
    for (int i = 0; i < 4; i++) {
      resetAfter("GET /chat.js HTTP/1.1\r\n" + host + "\r\n", 20 * i);
      resetAfter("GET /api/search?q=espresso&limit=50 HTTP/1.1\r\n" + host + "\r\n", 100 * i);
      resetAfter(
          "POST /api/research/run HTTP/1.1\r\n"
              + host
              + "Content-Type: application/json\r\nContent-Length: "
              + body.length()
              + "\r\n\r\n"
              + body,
          300 * i);
    }
    // A request afterwards is answered: the server settled every reset connection.
    var health = Http.get(server.url(), "/api/health");
    assertThat(health.status()).isEqualTo(200);
    Thread.sleep(500);
    var traces =
        RECORDS.stream()
            .filter(r -> r.getThrown() != null)
            .map(r -> r.getLoggerName() + ": " + r.getThrown())
            .toList();
    assertThat(traces).as("log records with a stack trace").isEmpty();
    assertThat(RECORDS)
        .as("the resets were seen")
        .anyMatch(r -> r.getMessage() != null && r.getMessage().contains("went away"));
  }
}
