package dev.brain.models.chat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ollama/<model>}: Ollama's native {@code POST /api/chat}, streamed as NDJSON lines ({@code
 * {"message": {"content": …}, "done": false}} … {@code {"done": true, "eval_count": …}}).
 */
final class OllamaChatModel extends HttpChatModel {

  OllamaChatModel(String id, String model, ChatConfig config) {
    super(id, model, config.ollamaUrl(), config);
  }

  @Override
  URI endpoint(URI baseUrl) {
    return URI.create(baseUrl + "/api/chat");
  }

  @Override
  byte[] requestBody(ChatRequest request) {
    ObjectNode root = WireJson.MAPPER.createObjectNode();
    root.put("model", model());
    ArrayNode messages = root.putArray("messages");
    for (ChatMessage message : request.messages()) {
      messages.add(message(message));
    }
    root.put("stream", true);
    if (request.jsonOutput()) {
      root.put("format", "json");
    }
    ObjectNode options = root.putObject("options");
    options.put("temperature", request.temperature());
    if (request.maxTokens() > 0) {
      options.put("num_predict", request.maxTokens());
    }
    if (!request.tools().isEmpty()) {
      root.set("tools", WireJson.functionTools(request.tools()));
    }
    return root.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  @Override
  void addHeaders(HttpRequest.Builder builder) {
    builder.header("Accept", "application/x-ndjson");
  }

  @Override
  StreamDecoder newDecoder(ChatListener listener) {
    return new Decoder(listener);
  }

  @Override
  ChatException statusError(int status, String serverMessage) {
    if (status == 404) {
      return fail(
          ChatException.Kind.UNAVAILABLE,
          "model '"
              + model()
              + "' is not available (HTTP 404: "
              + serverMessage
              + "); pull it with `ollama pull "
              + model()
              + "`",
          null);
    }
    ChatException.Kind kind =
        status == 503 ? ChatException.Kind.UNAVAILABLE : ChatException.Kind.PROTOCOL;
    return fail(kind, "HTTP " + status + ": " + serverMessage, null);
  }

  @Override
  String unreachableHint() {
    return "is Ollama running? Start it with `ollama serve`, or point "
        + ChatConfig.ENV_OLLAMA_URL
        + " at it";
  }

  @Override
  String terminator() {
    return "a line with \"done\": true";
  }

  private static ObjectNode message(ChatMessage message) {
    ObjectNode node = WireJson.MAPPER.createObjectNode();
    node.put("role", message.role());
    node.put("content", message.content());
    if (!message.toolCalls().isEmpty()) {
      ArrayNode calls = node.putArray("tool_calls");
      for (ChatResponse.ToolCall call : message.toolCalls()) {
        ObjectNode function = calls.addObject().putObject("function");
        function.put("name", call.name());
        function.set("arguments", arguments(call));
      }
    }
    return node;
  }

  /** Ollama takes arguments as a JSON object, not as text. */
  private static JsonNode arguments(ChatResponse.ToolCall call) {
    try {
      return WireJson.MAPPER.readTree(call.argumentsJson());
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "tool call '" + call.name() + "': argumentsJson is not JSON: " + e.getOriginalMessage(),
          e);
    }
  }

  /** NDJSON lines to tokens; the line with {@code "done": true} carries the token counts. */
  private final class Decoder implements StreamDecoder {
    private final ChatListener listener;
    private final StringBuilder content = new StringBuilder();
    private final List<ChatResponse.ToolCall> toolCalls = new ArrayList<>();
    private String reportedModel = model();
    private int promptTokens = -1;
    private int completionTokens = -1;

    Decoder(ChatListener listener) {
      this.listener = listener;
    }

    @Override
    public boolean onLine(String line) throws ChatException {
      if (line.isBlank()) {
        return false;
      }
      JsonNode event = WireJson.parseEvent(line, source(), "a stream line");
      if (event.hasNonNull("error")) {
        throw fail(
            ChatException.Kind.PROTOCOL,
            "the server reported an error mid-stream: " + WireJson.serverMessage(line),
            null);
      }
      reportedModel = event.path("model").asText(reportedModel);
      JsonNode message = event.path("message");
      String token = WireJson.text(message.path("content"));
      if (!token.isEmpty()) {
        content.append(token);
        listener.onToken(token);
      }
      for (JsonNode call : message.path("tool_calls")) {
        toolCalls.add(toolCall(call));
      }
      if (!event.path("done").asBoolean(false)) {
        return false;
      }
      promptTokens = event.path("prompt_eval_count").asInt(-1);
      completionTokens = event.path("eval_count").asInt(-1);
      return true;
    }

    @Override
    public ChatResponse response() {
      return new ChatResponse(
          content.toString(), toolCalls, reportedModel, promptTokens, completionTokens);
    }

    private ChatResponse.ToolCall toolCall(JsonNode call) {
      JsonNode function = call.path("function");
      JsonNode arguments = function.path("arguments");
      String json = arguments.isTextual() ? arguments.asText() : arguments.toString();
      String id = WireJson.text(call.path("id"));
      return new ChatResponse.ToolCall(
          id.isEmpty() ? "call_" + toolCalls.size() : id,
          WireJson.text(function.path("name")),
          arguments.isMissingNode() ? "{}" : json);
    }
  }
}
