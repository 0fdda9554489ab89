package dev.brain.models.chat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.util.List;

/**
 * A fake Ollama: {@link FakeHttpServer} plus builders for the native {@code /api/chat} wire format
 * (NDJSON lines, the last with {@code "done": true} and token counts).
 *
 * <pre>{@code
 * try (FakeOllamaServer ollama = FakeOllamaServer.start()) {
 *   ollama.enqueue(FakeOllamaServer.answer("llama3.2", List.of("Hel", "lo"), 12, 2).splitEvery(3));
 *   ChatModel model = ChatModels.open("ollama/llama3.2", ollama.config());
 * }
 * }</pre>
 */
public final class FakeOllamaServer extends FakeHttpServer {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CREATED_AT = "2026-01-01T00:00:00.000000000Z";

  private FakeOllamaServer() {}

  /** Starts a fake Ollama on a free loopback port. */
  public static FakeOllamaServer start() {
    return new FakeOllamaServer();
  }

  /** The Ollama base URL ({@code http://127.0.0.1:<port>}). */
  public URI baseUrl() {
    return url();
  }

  /** Local defaults pointed at this server. */
  public ChatConfig config() {
    return ChatConfig.defaults().withOllamaUrl(baseUrl());
  }

  /** A streamed answer: one line per token, then the done line with these counts. */
  public static FakeResponse answer(
      String model, List<String> tokens, int promptTokens, int evalTokens) {
    FakeResponse response = stream();
    for (String token : tokens) {
      response = response.write(tokenLine(model, token));
    }
    return response.write(doneLine(model, promptTokens, evalTokens));
  }

  /** An empty 200 NDJSON response, to {@link FakeResponse#write} lines into. */
  public static FakeResponse stream() {
    return FakeResponse.of(200, "application/x-ndjson");
  }

  /** One stream line carrying a token, with its newline. */
  public static String tokenLine(String model, String token) {
    ObjectNode line = JSON.createObjectNode().put("model", model).put("created_at", CREATED_AT);
    line.putObject("message").put("role", "assistant").put("content", token);
    return line.put("done", false) + "\n";
  }

  /** One stream line carrying a whole tool call, as Ollama sends it (arguments as an object). */
  public static String toolCallLine(String model, String name, String argumentsJson) {
    try {
      ObjectNode line = JSON.createObjectNode().put("model", model).put("created_at", CREATED_AT);
      ObjectNode message = line.putObject("message").put("role", "assistant").put("content", "");
      ObjectNode function = message.putArray("tool_calls").addObject().putObject("function");
      function.put("name", name).set("arguments", JSON.readTree(argumentsJson));
      return line.put("done", false) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** The final line with the token counts, with its newline. */
  public static String doneLine(String model, int promptTokens, int evalTokens) {
    ObjectNode line = JSON.createObjectNode().put("model", model).put("created_at", CREATED_AT);
    line.putObject("message").put("role", "assistant").put("content", "");
    return line.put("done", true)
            .put("done_reason", "stop")
            .put("total_duration", 1_234_567_890L)
            .put("load_duration", 1_000_000L)
            .put("prompt_eval_count", promptTokens)
            .put("prompt_eval_duration", 100_000_000L)
            .put("eval_count", evalTokens)
            .put("eval_duration", 900_000_000L)
        + "\n";
  }

  /** Ollama's answer for a model it does not have. */
  public static FakeResponse modelNotFound(String model) {
    ObjectNode error =
        JSON.createObjectNode()
            .put("error", "model \"" + model + "\" not found, try pulling it first");
    return FakeResponse.json(404, error.toString());
  }
}
