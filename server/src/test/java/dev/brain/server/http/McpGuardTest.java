package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The MCP endpoint sits behind the same guard as {@code /api/*}: a DNS-rebinding {@code Host}, a
 * cross-site {@code Origin} or a missing or wrong bearer token never reaches the tools.
 */
class McpGuardTest {
  private static final String TOKEN = "a-long-enough-test-token-0123456789";
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
          + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"guard\",\"version\":\"1\"}}}";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static BrainServer server;

  @BeforeAll
  static void startWithAToken() throws Exception {
    var config = SampleVaultData.onAnyPort(SampleVaultData.dataDir());
    server = BrainServer.start(config.withServer(config.server().withToken(TOKEN)));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static HttpResponse<String> initialize(String authorization, String origin)
      throws Exception {
    var request =
        HttpRequest.newBuilder(server.url().resolve("/mcp"))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    if (origin != null) {
      request.header("Origin", origin);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theRightTokenReachesTheTools() throws Exception {
    var reply = initialize("Bearer " + TOKEN, null);
    assertThat(reply.statusCode()).isEqualTo(200);
    assertThat(reply.body()).contains("\"serverInfo\"");
  }

  @Test
  void aMissingOrWrongTokenIsA401() throws Exception {
    assertThat(initialize(null, null).statusCode()).isEqualTo(401);
    assertThat(initialize("Bearer wrong-token-wrong-token-00", null).statusCode()).isEqualTo(401);
  }

  @Test
  void aCrossSiteOriginIsA403EvenWithTheToken() throws Exception {
    var reply = initialize("Bearer " + TOKEN, "https://evil.example");
    assertThat(reply.statusCode()).isEqualTo(403);
    assertThat(reply.body()).doesNotContain("serverInfo");
  }

  @Test
  void aForeignHostIsA403EvenWithTheToken() {
    byte[] body = INITIALIZE.getBytes(StandardCharsets.UTF_8);
    String head =
        "POST /mcp HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\n"
            + "Accept: application/json, text/event-stream\r\nAuthorization: Bearer "
            + TOKEN
            + "\r\nContent-Length: "
            + body.length;
    var reply = RawHttp.exchange(server.port(), head, body);
    assertThat(reply.status()).isEqualTo(403);
    assertThat(reply.body()).doesNotContain("serverInfo");
  }
}
