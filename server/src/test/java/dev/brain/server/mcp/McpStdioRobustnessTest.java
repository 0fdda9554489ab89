package dev.brain.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.research.pack.ResearchOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Raw JSON-RPC over the stdio of a real {@code brain mcp}: every bad line gets a proper error and
 * the server keeps serving; stdout carries JSON-RPC only (the JVM's own warnings go to stderr); the
 * process exits when stdin ends.
 */
class McpStdioRobustnessTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path temp;

  @Test
  void answersEveryBadMessageWithAnErrorAndKeepsServingUntilStdinEnds() throws Exception {
    Path data = McpTestData.copyOfSampleVault(temp);
    Path stderr = temp.resolve("stderr.txt");
    var builder = new ProcessBuilder(McpTestData.brainMcpCommand(data));
    builder.environment().putAll(McpTestData.childEnvironment());
    builder.redirectError(stderr.toFile());
    Process process = builder.start();
    OutputStream in = process.getOutputStream();
    try (var out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      var session = new Session(in, out);

      JsonNode early = session.ask("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
      assertThat(early.path("id").asInt()).isEqualTo(1);
      assertThat(early.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(early.path("error").path("message").asText()).contains("initialize");

      JsonNode malformed = session.ask("{\"jsonrpc\":\"2.0\",\"id\":");
      assertThat(malformed.path("error").path("code").asInt()).isEqualTo(-32700);
      assertThat(malformed.get("id").isNull()).isTrue();

      JsonNode notRpc = session.ask("{\"id\":9,\"hello\":\"world\"}");
      assertThat(notRpc.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(notRpc.path("id").asInt()).isEqualTo(9);

      JsonNode init =
          session.ask(
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":"
                  + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                  + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
      assertThat(init.path("result").path("serverInfo").path("name").asText()).isEqualTo("brain");
      session.tell("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

      JsonNode unknown =
          session.ask("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"brain/teleport\"}");
      assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32601);

      JsonNode wrongParams =
          session.ask(
              "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":5}}");
      assertThat(wrongParams.path("id").asInt()).isEqualTo(4);
      assertThat(wrongParams.path("error").path("code").asInt()).isEqualTo(-32602);
      assertThat(wrongParams.path("error").path("message").asText())
          .doesNotContain("io.modelcontextprotocol")
          .doesNotContain("`");

      String tenMegabytes = "a".repeat(10 << 20);
      JsonNode huge =
          session.ask(
              "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":"
                  + "\"brain_search\",\"arguments\":{\"query\":\""
                  + tenMegabytes
                  + "\"}}}");
      assertThat(huge.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(huge.path("error").path("message").asText()).contains("message over");

      JsonNode list = session.ask("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\"}");
      assertThat(list.path("id").asInt()).isEqualTo(6);
      assertThat(list.path("result").path("tools")).hasSize(BaseMcpClientTestCase.TOOLS.size());

      refusesWhatIsNoJsonRpcMessage(session);
      refusesARequestUnderTheIdOfOneStillRunning(session);
      refusesAQuestionOverTheCapHttpApplies(session);
      refusesInvalidUtf8NamingItsByteOffset(session);

      in.close(); // stdin ends: the server must exit by itself
      assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("brain mcp exits on stdin EOF").isTrue();
      assertThat(process.exitValue()).isZero();
      assertThat(out.readLine()).as("nothing after the last answer").isNull();
    } finally {
      process.destroyForcibly();
    }
    String errors = Files.readString(stderr);
    assertThat(errors).doesNotContain("\tat ");
    assertThat(McpTestData.entries(data)).containsExactly("index");
  }

  /**
   * Lines that must not run: each gets -32700 when it is not one JSON value, else -32600 with the
   * message's id when it had a valid one.
   */
  private static void refusesWhatIsNoJsonRpcMessage(Session session) throws IOException {
    String list = "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"tools/list\"}";
    assertError(session.ask(list + " trailing"), -32700, null);
    assertError(session.ask(list + "{\"jsonrpc\":\"2.0\"}"), -32700, null);
    assertError(session.ask("[]"), -32600, null);
    assertError(session.ask("[" + list + "]"), -32600, null);
    assertError(session.ask("42"), -32600, null);
    assertError(session.ask("\"str\""), -32600, null);
    assertError(session.ask("null"), -32600, null);
    assertError(
        session.ask("{\"jsonrpc\":\"1.0\",\"id\":21,\"method\":\"tools/list\"}"), -32600, 21);
    assertError(session.ask("{\"id\":22,\"method\":\"tools/list\"}"), -32600, 22);
    assertError(
        session.ask("{\"jsonrpc\":\"2.0\",\"id\":23,\"method\":\"tools/list\",\"params\":\"x\"}"),
        -32600,
        23);
    assertError(
        session.ask("{\"jsonrpc\":\"2.0\",\"id\":24,\"method\":\"tools/list\",\"params\":[1]}"),
        -32600,
        24);
    assertError(
        session.ask("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"tools/list\"}"),
        -32600,
        null);
    assertError(
        session.ask("{\"jsonrpc\":\"2.0\",\"id\":25,\"id\":26,\"method\":\"tools/list\"}"),
        -32600,
        null);
    // The session still serves.
    assertThat(session.ask(list).path("result").path("tools")).isNotEmpty();
  }

  private static void assertError(JsonNode answer, int code, Integer id) {
    assertThat(answer.path("error").path("code").asInt()).as(answer.toString()).isEqualTo(code);
    assertThat(answer.has("result")).isFalse();
    if (id == null) {
      assertThat(answer.get("id").isNull()).as(answer.toString()).isTrue();
    } else {
      assertThat(answer.path("id").asInt()).isEqualTo(id);
    }
  }

  /**
   * Two requests under one id in one write: the second is read while the first (a research pack,
   * which embeds the question) still runs, and is refused; the first is answered.
   */
  private static void refusesARequestUnderTheIdOfOneStillRunning(Session session)
      throws IOException {
    String pack =
        "{\"jsonrpc\":\"2.0\",\"id\":30,\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"brain_research_pack\",\"arguments\":{\"question\":\"espresso grind size\"}}}";
    String again = "{\"jsonrpc\":\"2.0\",\"id\":30,\"method\":\"tools/list\"}";
    session.tell(pack + "\n" + again);
    List<JsonNode> answers = List.of(session.next(), session.next());
    assertThat(answers)
        .allSatisfy(a -> assertThat(a.path("id").asInt()).isEqualTo(30))
        .anySatisfy(
            a -> {
              assertThat(a.path("error").path("code").asInt()).isEqualTo(-32600);
              assertThat(a.path("error").path("message").asText()).contains("still running");
            })
        .anySatisfy(
            a -> assertThat(a.path("result").path("structuredContent").has("evidence")).isTrue());
  }

  /** MCP takes a question of the length the HTTP API takes, and refuses a longer one. */
  private static void refusesAQuestionOverTheCapHttpApplies(Session session) throws IOException {
    JsonNode tooLong = session.ask(packCall(31, "w".repeat(5000)));
    assertThat(tooLong.path("result").path("isError").asBoolean()).as(tooLong.toString()).isTrue();
    assertThat(tooLong.toString()).containsPattern("question.*at most 4,?000 characters");
    JsonNode longest = session.ask(packCall(32, "w".repeat(ResearchOptions.MAX_QUESTION_CHARS)));
    assertThat(longest.path("result").path("isError").asBoolean()).isFalse();
  }

  private static void refusesInvalidUtf8NamingItsByteOffset(Session session) throws IOException {
    byte[] head =
        "{\"jsonrpc\":\"2.0\",\"id\":33,\"method\":\"tools/list\",\"params\":{\"x\":\""
            .getBytes(StandardCharsets.UTF_8);
    byte[] line = java.util.Arrays.copyOf(head, head.length + 5);
    line[head.length] = (byte) 0xC0; // an overlong '/'
    line[head.length + 1] = (byte) 0xAF;
    line[head.length + 2] = '"';
    line[head.length + 3] = '}';
    line[head.length + 4] = '}';
    session.in().write(line);
    session.in().write('\n');
    session.in().flush();
    JsonNode error = JSON.readTree(session.out().readLine()).path("error");
    assertThat(error.path("code").asInt()).isEqualTo(-32700);
    assertThat(error.path("message").asText()).contains("byte offset " + head.length);
  }

  private static String packCall(int id, String question) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\"tools/call\",\"params\":{\"name\":\"brain_research_pack\","
        + "\"arguments\":{\"question\":\""
        + question
        + "\"}}}";
  }

  /** One JSON-RPC line out, the next stdout line back; every stdout line must be JSON. */
  private record Session(OutputStream in, BufferedReader out) {
    void tell(String line) throws IOException {
      in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    }

    JsonNode ask(String line) throws IOException {
      tell(line);
      String answer = out.readLine();
      assertThat(answer).as("an answer to %s", abbreviate(line)).isNotNull();
      return JSON.readTree(answer); // fails the test if stdout carries anything but JSON
    }

    JsonNode next() throws IOException {
      String answer = out.readLine();
      assertThat(answer).isNotNull();
      return JSON.readTree(answer);
    }

    private static String abbreviate(String s) {
      return s.length() > 120 ? s.substring(0, 120) + "…" : s;
    }
  }
}
