package dev.brain.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.server.http.BrainServer;
import dev.brain.server.http.SampleVaultData;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Raw JSON-RPC against {@code POST /mcp} of a real server: every bad message gets a proper JSON-RPC
 * error with a fitting status, and the endpoint keeps serving.
 */
class McpHttpRobustnessTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
          + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

  @TempDir static Path temp;
  private static BrainServer server;
  private static URI mcp;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    server = BrainServer.start(SampleVaultData.onAnyPort(McpTestData.copyOfSampleVault(temp)));
    mcp = URI.create("http://127.0.0.1:" + server.port() + "/mcp");
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  static HttpResponse<String> post(String body, String session) throws Exception {
    var request =
        HttpRequest.newBuilder(mcp)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      request.header("Mcp-Session-Id", session);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The JSON-RPC messages of a response: its JSON body, or the data lines of its SSE stream. */
  static List<JsonNode> messages(HttpResponse<String> response) throws Exception {
    var out = new ArrayList<JsonNode>();
    String type = response.headers().firstValue("Content-Type").orElse("");
    if (type.startsWith("text/event-stream")) {
      for (String line : response.body().split("\n")) {
        if (line.startsWith("data:")) {
          out.add(JSON.readTree(line.substring(5).strip()));
        }
      }
    } else {
      out.add(JSON.readTree(response.body()));
    }
    return out;
  }

  static JsonNode only(HttpResponse<String> response) throws Exception {
    List<JsonNode> all = messages(response);
    assertThat(all).hasSize(1);
    return all.get(0);
  }

  static String initialize() throws Exception {
    var response = post(INITIALIZE, null);
    assertThat(response.statusCode()).isEqualTo(200);
    String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    assertThat(
            post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session)
                .statusCode())
        .isEqualTo(202);
    return session;
  }

  @Test
  void requestBeforeInitializeIsRefusedWithAJsonRpcError() throws Exception {
    var response = post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}", null);
    assertThat(response.statusCode()).isEqualTo(400);
    JsonNode error = only(response);
    assertThat(error.path("id").asInt()).isEqualTo(7);
    assertThat(error.path("error").path("message").asText()).contains("initialize");
  }

  @Test
  void malformedJsonIsAParseError() throws Exception {
    var response = post("{\"jsonrpc\": \"2.0\", \"id\": ", initialize());
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(only(response).path("error").path("code").asInt()).isEqualTo(-32700);
  }

  @Test
  void unknownMethodIsMethodNotFound() throws Exception {
    var response =
        post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"brain/teleport\"}", initialize());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(only(response).path("error").path("code").asInt()).isEqualTo(-32601);
  }

  @Test
  void wrongParamsAreInvalidParamsWithoutJavaNames() throws Exception {
    var response =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":5}}",
            initialize());
    JsonNode error = only(response);
    assertThat(error.path("id").asInt()).isEqualTo(4);
    assertThat(error.path("error").path("code").asInt()).isEqualTo(-32602);
    assertThat(error.path("error").path("message").asText())
        .doesNotContain("io.modelcontextprotocol");
  }

  @Test
  void whatIsNoJsonRpcMessageIsAnInvalidRequestAndNeverRuns() throws Exception {
    String session = initialize();
    String list = "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"tools/list\"}";
    for (String body :
        List.of(
            "[]",
            "[" + list + "]",
            "42",
            "\"str\"",
            "{\"jsonrpc\":\"1.0\",\"id\":20,\"method\":\"tools/list\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"tools/list\",\"params\":\"x\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":20,\"id\":21,\"method\":\"tools/list\"}")) {
      var response = post(body, session);
      assertThat(response.statusCode()).as(body).isEqualTo(400);
      JsonNode error = only(response);
      assertThat(error.path("error").path("code").asInt()).as(body).isEqualTo(-32600);
      assertThat(error.has("result")).isFalse();
    }
    var trailing = post(list + " trailing", session);
    assertThat(trailing.statusCode()).isEqualTo(400);
    assertThat(only(trailing).path("error").path("code").asInt()).isEqualTo(-32700);
  }

  @Test
  void aQuestionOverTheCapHttpAppliesIsAToolError() throws Exception {
    var response =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":40,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"brain_research_pack\",\"arguments\":{\"question\":\""
                + "w".repeat(ResearchOptions.MAX_QUESTION_CHARS + 1)
                + "\"}}}",
            initialize());
    JsonNode result = only(response).path("result");
    assertThat(result.path("isError").asBoolean()).isTrue();
    assertThat(result.toString()).containsPattern("question.*at most 4,?000 characters");
  }

  @Test
  void theToolSchemaStatesTheQuestionCapTheToolApplies() throws Exception {
    var list = post("{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"tools/list\"}", initialize());
    JsonNode pack = null;
    for (JsonNode tool : only(list).path("result").path("tools")) {
      if (tool.path("name").asText().equals("brain_research_pack")) {
        pack = tool.path("inputSchema").path("properties");
      }
    }
    assertThat(pack).isNotNull();
    assertThat(pack.path("question").path("maxLength").asInt())
        .isEqualTo(ResearchOptions.MAX_QUESTION_CHARS);
    assertThat(pack.path("prior_questions").path("items").path("maxLength").asInt())
        .isEqualTo(ResearchOptions.MAX_QUESTION_CHARS);
  }

  @Test
  void tenMegabyteMessageIsRefusedAndTheEndpointKeepsServing() throws Exception {
    String session = initialize();
    String huge =
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"brain_search\","
            + "\"arguments\":{\"query\":\""
            + "a".repeat(10 << 20)
            + "\"}}}";
    var response = post(huge, session);
    assertThat(response.statusCode()).isEqualTo(413);
    assertThat(only(response).path("error").path("message").asText()).contains("message over");
    var list = post("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\"}", session);
    assertThat(only(list).path("result").path("tools")).hasSize(BaseMcpClientTestCase.TOOLS.size());
  }

  @Test
  void unknownSessionIs404AndDeleteEndsASession() throws Exception {
    var unknown =
        post("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\"}", "no-such-session");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(only(unknown).path("id").asInt()).isEqualTo(8);
    String session = initialize();
    var delete =
        HTTP.send(
            HttpRequest.newBuilder(mcp).header("Mcp-Session-Id", session).DELETE().build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(delete.statusCode()).isEqualTo(200);
    assertThat(
            post("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\"}", session).statusCode())
        .isEqualTo(404);
  }

  @Test
  void getOffersNoServerStream() throws Exception {
    var response =
        HTTP.send(
            HttpRequest.newBuilder(mcp).header("Accept", "text/event-stream").GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(405);
    assertThat(response.headers().firstValue("Allow")).hasValue("POST, DELETE");
    assertThat(only(response).path("error").path("message").asText()).contains("POST");
  }

  @Test
  void aForeignOriginIsRefused() throws Exception {
    var foreignOrigin =
        HTTP.send(
            HttpRequest.newBuilder(mcp)
                .header("Content-Type", "application/json")
                .header("Origin", "https://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(foreignOrigin.statusCode()).isEqualTo(403);
  }
}
