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

  /** A tools/call of {@code tool} with {@code arguments} (a JSON object's text). */
  private static String call(int id, String tool, String arguments) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool
        + "\",\"arguments\":"
        + arguments
        + "}}";
  }

  @Test
  void everyLookupToolRefusesAnArgumentOverItsCap() throws Exception {
    String session = initialize();
    String overQuestion = "w".repeat(ResearchOptions.MAX_QUESTION_CHARS + 1);
    String overKey = "note:vault/" + "k".repeat(1_024);
    String[][] calls = {
      {"brain_search", "{\"query\":\"" + overQuestion + "\"}", "query"},
      {"brain_topic_brief", "{\"topic\":\"" + overQuestion + "\"}", "topic"},
      {"brain_get", "{\"key\":\"" + overKey + "\"}", "key"},
      {"brain_get", "{\"key\":\"note:vault/a.md\",\"query\":\"" + overQuestion + "\"}", "query"},
      {"brain_get_many", "{\"keys\":[\"" + overKey + "\"]}", "keys"},
      {"brain_get_many", "{\"keys\":[\"a\"],\"query\":\"" + overQuestion + "\"}", "query"},
      {"brain_related", "{\"key\":\"" + overKey + "\"}", "key"}
    };
    int id = 60;
    for (String[] c : calls) {
      JsonNode result = only(post(call(id++, c[0], c[1]), session)).path("result");
      assertThat(result.path("isError").asBoolean()).as(c[0] + " " + c[2]).isTrue();
      // The schema's validator or the tool's own check, whichever sees it first, names the cap.
      assertThat(result.toString()).as(c[0]).contains(c[2]).contains("at most");
    }
    StringBuilder keys = new StringBuilder();
    for (int i = 0; i <= BrainTools.MAX_KEYS; i++) {
      keys.append(i == 0 ? "" : ",").append("\"note:vault/").append(i).append(".md\"");
    }
    JsonNode many =
        only(post(call(id, "brain_get_many", "{\"keys\":[" + keys + "]}"), session)).path("result");
    assertThat(many.path("isError").asBoolean()).isTrue();
    assertThat(many.toString()).contains("keys").contains("at most " + BrainTools.MAX_KEYS);
  }

  @Test
  void aSearchAtTheQuestionCapIsAnswered() throws Exception {
    String query = "espresso ".repeat(ResearchOptions.MAX_QUESTION_CHARS / 9);
    JsonNode result =
        only(post(call(70, "brain_search", "{\"query\":\"" + query + "\"}"), initialize()))
            .path("result");
    assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
  }

  @Test
  void invalidUtf8IsAParseErrorNamingItsByteOffset() throws Exception {
    String session = initialize();
    byte[] head =
        "{\"jsonrpc\":\"2.0\",\"id\":50,\"method\":\"tools/list\",\"params\":{\"x\":\""
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] tail = "\"}}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    for (byte[] bad :
        List.of(
            new byte[] {(byte) 0xFF},
            new byte[] {(byte) 0xC0, (byte) 0xAF},
            new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80})) {
      byte[] body = new byte[head.length + bad.length + tail.length];
      System.arraycopy(head, 0, body, 0, head.length);
      System.arraycopy(bad, 0, body, head.length, bad.length);
      System.arraycopy(tail, 0, body, head.length + bad.length, tail.length);
      var request =
          HttpRequest.newBuilder(mcp)
              .header("Content-Type", "application/json")
              .header("Accept", "application/json, text/event-stream")
              .header("Mcp-Session-Id", session)
              .POST(HttpRequest.BodyPublishers.ofByteArray(body));
      var response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(400);
      JsonNode error = only(response).path("error");
      assertThat(error.path("code").asInt()).isEqualTo(-32700);
      assertThat(error.path("message").asText())
          .contains("UTF-8")
          .contains("byte offset " + head.length);
    }
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
