package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.BrainConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Clients that send a request slowly or not at all have their connection closed by the configured
 * deadlines (here 1 s for headers and bodies, 2 s idle), over raw sockets against a real server:
 * partial headers, a short body, a drip of body or header bytes, a request line that never ends, a
 * connection that sends nothing (also more of them than the connection cap), an idle keep-alive.
 */
class SlowClientTest {
  private static final Duration HEADER = Duration.ofSeconds(1);
  private static final Duration READ = Duration.ofSeconds(1);
  private static final Duration IDLE = Duration.ofSeconds(2);

  /** Far longer than any deadline here: a connection still open by then was not cut off. */
  private static final int PATIENCE_MILLIS = 12_000;

  private static BrainServer server;

  @BeforeAll
  static void start() throws Exception {
    var config = BrainConfig.defaults(SampleVaultData.dataDir());
    server =
        BrainServer.start(
            config.withServer(config.server().withPort(0).withTimeouts(HEADER, READ, IDLE)));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Socket connect() throws IOException {
    var socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
    socket.setSoTimeout(PATIENCE_MILLIS);
    return socket;
  }

  private static void send(Socket socket, String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
    socket.getOutputStream().flush();
  }

  /** Whatever the server sent until it closed the connection; fails if it kept it open. */
  private static String untilClosed(Socket socket) throws IOException {
    var received = new ByteArrayOutputStream();
    InputStream in = socket.getInputStream();
    byte[] chunk = new byte[4096];
    try {
      for (int n; (n = in.read(chunk)) >= 0; ) {
        received.write(chunk, 0, n);
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError(
          "the server kept the connection open for " + PATIENCE_MILLIS + " ms");
    } catch (SocketException e) {
      // reset: closed as well
    }
    return received.toString(StandardCharsets.ISO_8859_1);
  }

  private static String head() {
    return "POST /api/research HTTP/1.1\r\nHost: 127.0.0.1:"
        + server.port()
        + "\r\nContent-Type: application/json\r\n";
  }

  @Test
  void partialHeadersThenSilenceCloseTheConnection() throws Exception {
    try (var socket = connect()) {
      send(socket, head() + "X-Partial: ");
      assertThat(untilClosed(socket)).doesNotContain("HTTP/1.1 200");
    }
  }

  @Test
  void aShortBodyThenSilenceClosesTheConnection() throws Exception {
    try (var socket = connect()) {
      send(socket, head() + "Content-Length: 100\r\n\r\n{\"question\":");
      assertThat(untilClosed(socket)).doesNotContain("HTTP/1.1 200");
    }
  }

  @Test
  void aShortBodyToTheMcpEndpointClosesTheConnectionToo() throws Exception {
    try (var socket = connect()) {
      send(
          socket,
          "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
              + server.port()
              + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream"
              + "\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\":");
      assertThat(untilClosed(socket)).doesNotContain("HTTP/1.1 200");
    }
  }

  @Test
  void aDrippedBodyIsCutOffAtTheReadTimeout() throws Exception {
    try (var socket = connect()) {
      send(socket, head() + "Content-Length: 100\r\n\r\n");
      long start = System.nanoTime();
      assertThat(dripUntilClosed(socket, 100)).isTrue();
      // 100 bytes at one per 200 ms would take 20 s; the deadline is 1 s.
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }
  }

  @Test
  void drippedHeadersAreCutOffAtTheHeaderTimeout() throws Exception {
    try (var socket = connect()) {
      send(socket, head());
      assertThat(dripUntilClosed(socket, 100)).isTrue();
    }
  }

  @Test
  void aRequestLineThatNeverEndsIsClosedAsIdle() throws Exception {
    try (var socket = connect()) {
      send(socket, "GET /api/hea");
      assertThat(untilClosed(socket)).isEmpty();
    }
  }

  @Test
  void aConnectionThatSendsNothingIsClosed() throws Exception {
    try (var socket = connect()) {
      assertThat(untilClosed(socket)).isEmpty();
    }
  }

  @Test
  void anIdleKeepAliveConnectionIsClosedAfterItsRequest() throws Exception {
    try (var socket = connect()) {
      send(socket, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\n\r\n");
      assertThat(untilClosed(socket)).startsWith("HTTP/1.1 200").contains("keep-alive");
    }
  }

  @Test
  void moreSilentConnectionsThanTheCapDoNotStarveARealRequest() throws Exception {
    var silent = new java.util.ArrayList<Socket>();
    try {
      for (int i = 0; i < BrainServer.MAX_CONNECTIONS + 8; i++) {
        silent.add(new Socket(InetAddress.getLoopbackAddress(), server.port()));
      }
      var health = RawHttp.get(server.port(), "/api/health", "127.0.0.1:" + server.port());
      assertThat(health.status()).as(health.body()).isEqualTo(200);
    } finally {
      for (Socket s : silent) {
        s.close();
      }
    }
  }

  @Test
  void aBodyInTwoPartsWithinTheDeadlineIsAnswered() throws Exception {
    String body = "{\"question\":\"How often should I backflush?\",\"limit\":2}";
    try (var socket = connect()) {
      send(
          socket,
          head() + "Content-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + "{");
      Thread.sleep(200);
      send(socket, body.substring(1));
      assertThat(untilClosed(socket)).startsWith("HTTP/1.1 200");
    }
  }

  /**
   * Sends one byte ({@code x}) every 200 ms, at most {@code bytes}; whether the server closed the
   * connection before they were all sent.
   */
  private static boolean dripUntilClosed(Socket socket, int bytes) throws Exception {
    for (int i = 0; i < bytes; i++) {
      try {
        socket.getOutputStream().write('x');
        socket.getOutputStream().flush();
      } catch (SocketException e) {
        return true;
      }
      if (closedByServer(socket)) {
        return true;
      }
      Thread.sleep(200);
    }
    return false;
  }

  /** Whether the server closed the connection: a read that ends or resets at once. */
  private static boolean closedByServer(Socket socket) throws IOException {
    socket.setSoTimeout(1);
    try {
      return socket.getInputStream().read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (SocketException e) {
      return true;
    } finally {
      socket.setSoTimeout(PATIENCE_MILLIS);
    }
  }
}
