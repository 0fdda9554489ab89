package dev.brain.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.brain.models.chat.ChatConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code brain agent --demo}'s scripted models: a loopback OpenAI-compatible server (SSE chat
 * completions, tool calls streamed in fragments) whose answers are a fixed script, not a language
 * model. Requests with tools are the controller: search the corpus, hand the best row to the {@code
 * summarize} worker, then answer from the worker's JSON citing the row's key. Requests without
 * tools are the worker: its JSON summary is the row's first sentences. The agent loop, the tools
 * and the verification around it are brain's real ones.
 */
final class ScriptedAgentServer implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String CONTROLLER = "openai/scripted-controller";
  static final String WORKER = "openai/scripted-worker";

  /** What a search excerpt puts where it cut the text (retrieval's {@code Excerpts}). */
  private static final String ELLIPSIS = "\u2026";

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

  ScriptedAgentServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(executor);
    server.createContext("/v1/chat/completions", this::handle);
    server.start();
  }

  /** Model server settings pointing at this server. */
  ChatConfig chatConfig() {
    return ChatConfig.defaults()
        .withOpenAiUrl(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1"));
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      JsonNode request = JSON.readTree(exchange.getRequestBody());
      List<String> events = request.path("tools").isArray() ? controller(request) : worker(request);
      exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      for (String event : events) {
        out.write(("data: " + event + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
      out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
    }
  }

  private static List<String> controller(JsonNode request) throws IOException {
    JsonNode messages = request.path("messages");
    String task = "";
    var results = new ArrayList<JsonNode>();
    for (JsonNode m : messages) {
      switch (m.path("role").asText()) {
        case "user" -> task = m.path("content").asText();
        case "tool" -> results.add(parse(m.path("content").asText()));
        default -> {}
      }
    }
    if (results.isEmpty()) {
      return toolCall("call_1", "brain_search", args("query", task, "limit", 3));
    }
    JsonNode rows = results.get(0).path("rows");
    if (!rows.isArray() || rows.isEmpty()) {
      return text("The corpus holds nothing on this task (scripted demo).");
    }
    JsonNode top = rows.get(0);
    String key = top.path("source_key").asText();
    if (results.size() == 1) {
      String excerpt = top.path("excerpt").asText(top.path("title").asText());
      return toolCall(
          "call_2", "summarize", args("text", "[" + key + "] " + excerpt, "goal", task));
    }
    JsonNode summary = results.get(1);
    var answer = new StringBuilder("(scripted demo) From your notes: ");
    answer.append(summary.path("summary").asText()).append(" [").append(key).append("]");
    for (JsonNode point : summary.path("key_points")) {
      answer.append("\n- ").append(point.asText()).append(" [").append(key).append("]");
    }
    return text(answer.toString());
  }

  private static List<String> worker(JsonNode request) {
    JsonNode messages = request.path("messages");
    String prompt = messages.get(messages.size() - 1).path("content").asText();
    int at = prompt.indexOf("TEXT:\n");
    String text = at < 0 ? prompt : prompt.substring(at + 6);
    text = text.replaceAll("\\[[a-z-]+:[^\\]]*]\\s*", "").replaceAll("\\s+", " ").strip();
    List<String> sentences = wholeSentences(text);
    ObjectNode out = JSON.createObjectNode();
    out.put("summary", sentences.getFirst());
    ArrayNode points = out.putArray("key_points");
    for (int i = 1; i < Math.min(sentences.size(), 4); i++) {
      points.add(sentences.get(i));
    }
    return text(out.toString());
  }

  /**
   * The text's sentences without the pieces a search excerpt cut: the one its leading ellipsis
   * starts inside and the one its trailing ellipsis ends ("…thin. It holds 18 g. The grinder…"
   * gives "It holds 18 g."); the text as it is when every sentence is cut.
   */
  static List<String> wholeSentences(String text) {
    var whole = new ArrayList<String>();
    for (String sentence : text.split("(?<=[.!?])\\s+")) {
      if (!sentence.startsWith(ELLIPSIS) && !sentence.endsWith(ELLIPSIS)) {
        whole.add(sentence);
      }
    }
    return whole.isEmpty() ? List.of(text) : whole;
  }

  private static List<String> toolCall(String id, String name, String arguments) {
    int half = arguments.length() / 2;
    return List.of(
        fragment(id, name, arguments.substring(0, half)),
        fragment(null, null, arguments.substring(half)),
        finish("tool_calls"));
  }

  private static List<String> text(String answer) {
    var events = new ArrayList<String>();
    for (String piece : answer.split("(?<= )")) {
      ObjectNode chunk = chunk();
      ((ObjectNode) chunk.path("choices").get(0)).putObject("delta").put("content", piece);
      events.add(chunk.toString());
    }
    events.add(finish("stop"));
    return events;
  }

  private static String fragment(String id, String name, String arguments) {
    ObjectNode chunk = chunk();
    ObjectNode call =
        ((ObjectNode) chunk.path("choices").get(0))
            .putObject("delta")
            .putArray("tool_calls")
            .addObject()
            .put("index", 0);
    if (id != null) {
      call.put("id", id).put("type", "function");
    }
    ObjectNode function = call.putObject("function");
    if (name != null) {
      function.put("name", name);
    }
    function.put("arguments", arguments);
    return chunk.toString();
  }

  private static String finish(String reason) {
    ObjectNode chunk = chunk();
    ((ObjectNode) chunk.path("choices").get(0)).put("finish_reason", reason).putObject("delta");
    return chunk.toString();
  }

  private static ObjectNode chunk() {
    ObjectNode chunk = JSON.createObjectNode().put("object", "chat.completion.chunk");
    chunk.put("model", "scripted").putArray("choices").addObject().put("index", 0);
    return chunk;
  }

  private static String args(Object... keyValues) {
    ObjectNode node = JSON.createObjectNode();
    for (int i = 0; i + 1 < keyValues.length; i += 2) {
      node.set((String) keyValues[i], JSON.valueToTree(keyValues[i + 1]));
    }
    return node.toString();
  }

  private static JsonNode parse(String text) throws IOException {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }
}
