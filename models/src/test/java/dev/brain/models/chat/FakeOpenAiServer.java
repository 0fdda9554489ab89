package dev.brain.models.chat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.util.List;

/**
 * A fake OpenAI-compatible server: {@link FakeHttpServer} plus builders for the {@code
 * /v1/chat/completions} streaming format (server-sent {@code data:} events of {@code
 * chat.completion.chunk} objects, ending with {@code data: [DONE]}).
 *
 * <pre>{@code
 * try (FakeOpenAiServer openAi = FakeOpenAiServer.start()) {
 *   openAi.enqueue(FakeOpenAiServer.answer("gpt-test", List.of("Hel", "lo"), 12, 2));
 *   ChatModel model = ChatModels.open("openai/gpt-test", openAi.config());
 * }
 * }</pre>
 */
public final class FakeOpenAiServer extends FakeHttpServer {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The terminating event, with its blank line. */
  public static final String DONE_EVENT = "data: [DONE]\n\n";

  private FakeOpenAiServer() {}

  /** Starts a fake server on a free loopback port. */
  public static FakeOpenAiServer start() {
    return new FakeOpenAiServer();
  }

  /** The API base URL, {@code http://127.0.0.1:<port>/v1}. */
  public URI baseUrl() {
    return URI.create(url() + "/v1");
  }

  /** Local defaults pointed at this server. */
  public ChatConfig config() {
    return ChatConfig.defaults().withOpenAiUrl(baseUrl());
  }

  /**
   * A streamed answer: a role chunk, one chunk per token, a finish chunk, a usage chunk, then
   * {@code [DONE]}.
   */
  public static FakeResponse answer(
      String model, List<String> tokens, int promptTokens, int completionTokens) {
    FakeResponse response = stream().write(event(roleChunk(model)));
    for (String token : tokens) {
      response = response.write(event(contentChunk(model, token)));
    }
    return response
        .write(event(finishChunk(model, "stop")))
        .write(event(usageChunk(model, promptTokens, completionTokens)))
        .write(DONE_EVENT);
  }

  /** An empty 200 event-stream response, to {@link FakeResponse#write} events into. */
  public static FakeResponse stream() {
    return FakeResponse.of(200, "text/event-stream");
  }

  /** {@code data: <json>} and the blank line ending the event. */
  public static String event(String json) {
    return "data: " + json + "\n\n";
  }

  /** The first chunk, announcing the assistant role. */
  public static String roleChunk(String model) {
    ObjectNode chunk = chunk(model);
    delta(chunk).put("role", "assistant").put("content", "");
    return chunk.toString();
  }

  /** A chunk carrying one token. */
  public static String contentChunk(String model, String token) {
    ObjectNode chunk = chunk(model);
    delta(chunk).put("content", token);
    return chunk.toString();
  }

  /**
   * A chunk carrying one fragment of the tool call at {@code index}; {@code id} and {@code name}
   * may be null (only the first fragment of a call carries them).
   */
  public static String toolCallChunk(
      String model, int index, String id, String name, String argumentsFragment) {
    ObjectNode chunk = chunk(model);
    ObjectNode call = delta(chunk).putArray("tool_calls").addObject().put("index", index);
    if (id != null) {
      call.put("id", id).put("type", "function");
    }
    ObjectNode function = call.putObject("function");
    if (name != null) {
      function.put("name", name);
    }
    function.put("arguments", argumentsFragment);
    return chunk.toString();
  }

  /** The chunk with the finish reason and an empty delta. */
  public static String finishChunk(String model, String finishReason) {
    ObjectNode chunk = chunk(model);
    ((ObjectNode) chunk.path("choices").path(0)).put("finish_reason", finishReason);
    return chunk.toString();
  }

  /** The usage chunk ({@code stream_options.include_usage}): no choices, token counts. */
  public static String usageChunk(String model, int promptTokens, int completionTokens) {
    ObjectNode chunk = header(model);
    chunk.putArray("choices");
    chunk
        .putObject("usage")
        .put("prompt_tokens", promptTokens)
        .put("completion_tokens", completionTokens)
        .put("total_tokens", promptTokens + completionTokens);
    return chunk.toString();
  }

  /** OpenAI's answer for an unknown model. */
  public static FakeResponse modelNotFound(String model) {
    return error(
        404,
        "The model `" + model + "` does not exist or you do not have access to it.",
        "model_not_found");
  }

  /** An authentication failure whose message echoes {@code echoed} (as some servers do). */
  public static FakeResponse unauthorized(String echoed) {
    return error(401, "Incorrect API key provided: " + echoed + ".", "invalid_api_key");
  }

  /** An OpenAI-style error document with this status. */
  public static FakeResponse error(int status, String message, String code) {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("error")
        .put("message", message)
        .put("type", "invalid_request_error")
        .putNull("param")
        .put("code", code);
    return FakeResponse.json(status, body.toString());
  }

  private static ObjectNode header(String model) {
    return JSON.createObjectNode()
        .put("id", "chatcmpl-fake")
        .put("object", "chat.completion.chunk")
        .put("created", 1_767_225_600L)
        .put("model", model);
  }

  private static ObjectNode chunk(String model) {
    ObjectNode chunk = header(model);
    ArrayNode choices = chunk.putArray("choices");
    ObjectNode choice = choices.addObject().put("index", 0);
    choice.putObject("delta");
    choice.putNull("finish_reason");
    return chunk;
  }

  private static ObjectNode delta(ObjectNode chunk) {
    return (ObjectNode) chunk.path("choices").path(0).path("delta");
  }
}
