package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.BrainConfig;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A request whose length is ambiguous, or whose target is not a plain normalized path, is refused
 * with one 400 and {@code Connection: close}, and the connection ends: the bytes after it never run
 * as a second request (request smuggling). Each case pipelines a harmless second request on the
 * same raw socket and asserts that only the refusal comes back.
 */
class RequestFramingTest {
  private static BrainServer server;

  @BeforeAll
  static void start() throws Exception {
    var config = BrainConfig.defaults(SampleVaultData.dataDir());
    server = BrainServer.start(config.withServer(config.server().withPort(0)));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String host() {
    return "Host: 127.0.0.1:" + server.port() + "\r\n";
  }

  /** The harmless request pipelined after each bad one. */
  private static String second() {
    return "GET /api/health HTTP/1.1\r\n" + host() + "\r\n";
  }

  private static String search(String framing, String body) {
    return "POST /api/search HTTP/1.1\r\n"
        + host()
        + "Content-Type: application/json\r\n"
        + framing
        + "\r\n"
        + body;
  }

  /** Sends {@code first} then the second request; asserts one 400 that closes the connection. */
  private static RawHttp.Conversation assertRefusedAndClosed(String first) {
    var c =
        RawHttp.converse(
            server.port(), (first + second()).getBytes(StandardCharsets.ISO_8859_1), 10_000);
    assertThat(c.statuses()).as(c.text()).containsExactly(400);
    assertThat(c.text()).containsIgnoringCase("connection: close");
    assertThat(c.closed()).as("the server closed the connection").isTrue();
    return c;
  }

  @Test
  void contentLengthWithChunkedIsRefusedAndCloses() {
    String body = "{\"query\":\"grind\"}";
    var c =
        assertRefusedAndClosed(
            search(
                "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n",
                Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n"));
    assertThat(c.text()).contains("not both");
  }

  @Test
  void twoContentLengthsAreRefusedAndClose() {
    var c =
        assertRefusedAndClosed(
            search("Content-Length: 17\r\nContent-Length: 0\r\n", "{\"query\":\"grind\"}"));
    assertThat(c.text()).contains("one Content-Length");
  }

  @Test
  void anObfuscatedChunkedIsRefusedAndCloses() {
    for (String coding :
        new String[] {
          "chunked, identity", ", chunked", "chunked,", "identity", "xchunked", "chunked;q=1"
        }) {
      String body = "{\"query\":\"grind\"}";
      var c =
          assertRefusedAndClosed(
              search(
                  "Transfer-Encoding: " + coding + "\r\n",
                  Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n"));
      assertThat(c.text()).as(coding).contains("exactly 'chunked'");
    }
  }

  @Test
  void aTransferEncodingWithALeadingSpaceInItsNameIsRefusedAndCloses() {
    String body = "{\"query\":\"grind\"}";
    assertRefusedAndClosed(
        search(
            " Transfer-Encoding: chunked\r\n",
            Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n"));
  }

  /** A chunked POST to an endpoint that reads its JSON body (research, here with no question). */
  private static String chunkedResearch(String sizeLine, String body) {
    return chunkedResearch("chunked", sizeLine, body);
  }

  private static String chunkedResearch(String coding, String sizeLine, String body) {
    return "POST /api/research HTTP/1.1\r\n"
        + host()
        + "Content-Type: application/json\r\nTransfer-Encoding: "
        + coding
        + "\r\n\r\n"
        + sizeLine
        + "\r\n"
        + body
        + "\r\n0\r\n\r\n";
  }

  @Test
  void aChunkExtensionIsRefusedAndCloses() {
    String body = "{}";
    assertRefusedAndClosed(chunkedResearch(Integer.toHexString(body.length()) + ";ext=1", body));
    // A route that answers without reading the body: its answer stands, then the connection ends.
    String unread =
        search("Transfer-Encoding: chunked\r\n", "2;ext=1\r\n{}\r\n0\r\n\r\n") + second();
    var c = RawHttp.converse(server.port(), unread.getBytes(StandardCharsets.ISO_8859_1), 10_000);
    assertThat(c.statuses()).as(c.text()).containsExactly(405);
    assertThat(c.closed()).isTrue();
  }

  @Test
  void aPlainChunkedBodyIsStillReadAndTheNextRequestAnswered() {
    String body = "{}";
    String request = chunkedResearch(Integer.toHexString(body.length()), body) + second();
    var c = RawHttp.converse(server.port(), request.getBytes(StandardCharsets.ISO_8859_1), 3000);
    // No question: a 400 of the endpoint's own, and the connection goes on.
    assertThat(c.statuses()).as(c.text()).containsExactly(400, 200);
    assertThat(c.text()).contains("question");
  }

  @Test
  void theChunkedCodingIsReadInAnyCaseAndWithOptionalWhitespace() {
    String body = "{}";
    for (String coding : new String[] {"Chunked", "CHUNKED", " chunked ", "\tChunked\t"}) {
      String request = chunkedResearch(coding, Integer.toHexString(body.length()), body) + second();
      var c = RawHttp.converse(server.port(), request.getBytes(StandardCharsets.ISO_8859_1), 3000);
      // The body was read as chunks (the endpoint's own 400: no question), not as a next request.
      assertThat(c.statuses()).as(coding + ": " + c.text()).containsExactly(400, 200);
      assertThat(c.text()).as(coding).contains("question");
    }
  }

  @Test
  void anAbsoluteFormTargetIsRefusedAndCloses() {
    var c =
        assertRefusedAndClosed(
            "GET http://evil.example/api/search?q=grind HTTP/1.1\r\n" + host() + "\r\n");
    assertThat(c.text()).contains("origin form");
  }

  /** Paths whose raw form differs from the normalized one. */
  private static final String[] POISONING_PATHS = {
    "/;x",
    "/;",
    "/index.html;x",
    "/x;y/..",
    "/search;x",
    "/;x/",
    "/x/..",
    "/.",
    "/index.html/..",
    "//evil.example/..",
    "/a/%2e%2E",
    "/x/..;p=1",
    "/openapi.yaml/.."
  };

  @Test
  void requestsWithUnnormalizedPathsLeaveTheFrontPageAsItWas() {
    for (String path : POISONING_PATHS) {
      for (String method : new String[] {"GET", "HEAD"}) {
        RawHttp.converse(
            server.port(),
            (method + " " + path + " HTTP/1.1\r\n" + host() + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1),
            2000);
      }
    }
    var front = RawHttp.get(server.port(), "/", "127.0.0.1:" + server.port());
    assertThat(front.status()).as(front.headers().toString()).isEqualTo(200);
    assertThat(front.header("Location")).isEmpty();
    assertThat(front.body()).contains("<html");
  }

  /**
   * The first requests a new server sees are the poisoning ones, and after each the front page is
   * still the page: a static directory redirect built from a raw path ({@code /;x} to {@code /;x/})
   * would otherwise be cached for every later {@code GET /}.
   */
  @Test
  void aNewServerWhoseFirstRequestsAreUnnormalizedStillServesTheFrontPage() throws Exception {
    var config = BrainConfig.defaults(SampleVaultData.dataDir());
    try (var fresh = BrainServer.start(config.withServer(config.server().withPort(0)))) {
      String host = "127.0.0.1:" + fresh.port();
      for (String path : POISONING_PATHS) {
        for (String method : new String[] {"GET", "HEAD"}) {
          var c =
              RawHttp.converse(
                  fresh.port(),
                  (method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n")
                      .getBytes(StandardCharsets.ISO_8859_1),
                  2000);
          assertThat(c.statuses()).as(method + " " + path).containsExactly(400);
          var page = RawHttp.get(fresh.port(), "/", host);
          assertThat(page.status()).as("/ after " + path + ": " + page.headers()).isEqualTo(200);
          assertThat(page.header("Location")).isEmpty();
          assertThat(page.body()).contains("<html");
        }
      }
    }
  }

  @Test
  void unnormalizedPathsAreRefusedAndClose() {
    for (String path : POISONING_PATHS) {
      var c = assertRefusedAndClosed("GET " + path + " HTTP/1.1\r\n" + host() + "\r\n");
      assertThat(c.text()).as(path).contains("normalized");
    }
  }
}
