package dev.brain.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.BrainConfig;
import dev.brain.McpSettings;
import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import dev.brain.server.http.BrainServer;
import dev.brain.server.http.SampleVaultData;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code mcp.allow-writes: true}, {@code POST /mcp} runs the writing tool {@code
 * brain_research_note} only for a request carrying the server's token ({@code Authorization:
 * Bearer}, as the REST writes): without it, or with a wrong one, the call is a 401 with a JSON-RPC
 * error and the note stays as it was on disk. Reading tools need no token.
 */
class McpWriteAuthorizationTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
          + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"writer\",\"version\":\"1\"}}}";
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @TempDir static Path dir;
  private static Path vault;
  private static BrainServer server;
  private static URI mcp;

  @BeforeAll
  static void start() throws Exception {
    vault = Files.createDirectories(dir.resolve("vault"));
    Files.writeString(
        vault.resolve("Grinder.md"),
        "# Grinder\n\nThe [[Espresso]] grind is 15 on the burr grinder.\n");
    Files.writeString(
        vault.resolve("Espresso.md"),
        "# Espresso\n\n18 g in, 36 g out. Grind 15 on the burr grinder with conical burrs.\n");
    Path data = dir.resolve("data");
    var collections = List.of(CollectionRoot.of("vault", vault));
    CollectionsFile.of(data).write(collections);
    BrainConfig config = SampleVaultData.onAnyPort(data).withMcp(new McpSettings(true));
    try (var index = BrainIndex.open(config.indexConfig())) {
      index.syncCollections(collections, null);
    }
    server = BrainServer.start(config);
    mcp = server.url().resolve("/mcp");
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static HttpResponse<String> post(String body, String session, String token)
      throws Exception {
    var request =
        HttpRequest.newBuilder(mcp)
            .timeout(Duration.ofSeconds(120))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      request.header("Mcp-Session-Id", session);
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A session opened without any token: initializing needs none. */
  private static String initialize() throws Exception {
    var response = post(INITIALIZE, null, null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session, null);
    return session;
  }

  private static String call(String tool, Map<String, Object> arguments) throws Exception {
    return JSON.writeValueAsString(
        Map.of(
            "jsonrpc",
            "2.0",
            "id",
            9,
            "method",
            "tools/call",
            "params",
            Map.of("name", tool, "arguments", arguments)));
  }

  /** The one JSON-RPC message of a response: its JSON body, or the last event of its stream. */
  private static JsonNode message(HttpResponse<String> response) throws Exception {
    if (!response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
      return JSON.readTree(response.body());
    }
    JsonNode last = null;
    for (String line : response.body().split("\n")) {
      if (line.startsWith("data:")) {
        last = JSON.readTree(line.substring(5).strip());
      }
    }
    return last;
  }

  @Test
  void theWritingToolWithoutTheTokenIsA401AndTheNoteIsUnchanged() throws Exception {
    Path note = vault.resolve("Grinder.md");
    byte[] before = Files.readAllBytes(note);
    String session = initialize();
    for (String token : new String[] {null, "not-the-token", server.clientToken() + "0"}) {
      for (boolean dryRun : new boolean[] {false, true}) {
        var response =
            post(
                call(
                    "brain_research_note",
                    Map.of("path", "note:vault/Grinder.md", "dry_run", dryRun)),
                session,
                token);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate"))
            .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        JsonNode error = message(response);
        assertThat(error.path("id").asInt()).isEqualTo(9);
        assertThat(error.path("error").path("message").asText())
            .contains("brain_research_note", "Authorization: Bearer <token>", "server.json");
        assertThat(response.body()).doesNotContain("## Research");
      }
    }
    assertThat(Files.readAllBytes(note)).isEqualTo(before);
  }

  @Test
  void theWritingToolWithTheTokenWritesTheNote() throws Exception {
    Path note = Files.writeString(vault.resolve("Burrs.md"), "# Burrs\n\nConical burrs, 63 mm.\n");
    var response =
        post(
            call("brain_research_note", Map.of("path", note.toString())),
            initialize(),
            server.clientToken());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode result = message(response).path("result");
    assertThat(result.path("isError").asBoolean()).as(response.body()).isFalse();
    assertThat(result.path("structuredContent").path("written").asBoolean()).isTrue();
    assertThat(Files.readString(note))
        .startsWith("# Burrs\n\nConical burrs, 63 mm.\n\n## Research");
  }

  @Test
  void readingToolsNeedNoToken() throws Exception {
    var response = post(call("brain_search", Map.of("query", "burr grinder")), initialize(), null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode result = message(response).path("result");
    assertThat(result.path("isError").asBoolean()).as(response.body()).isFalse();
    assertThat(response.body()).contains("Grinder.md");
  }
}
