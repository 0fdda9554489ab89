package dev.brain.models.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code openai/<model>}: {@code POST <base>/chat/completions} on any OpenAI-compatible server
 * (llama.cpp, vLLM, LM Studio, Ollama's {@code /v1}, OpenAI), streamed as server-sent events ending
 * with {@code data: [DONE]}. Tool-call fragments are accumulated by their index.
 */
final class OpenAiChatModel extends HttpChatModel {
  private static final String DONE = "[DONE]";

  OpenAiChatModel(String id, String model, ChatConfig config) {
    super(id, model, config.openAiUrl(), config);
  }

  @Override
  URI endpoint(URI baseUrl) {
    return URI.create(baseUrl + "/chat/completions");
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
    // Asks for a last chunk with token usage; servers that do not know the option ignore it.
    root.putObject("stream_options").put("include_usage", true);
    root.put("temperature", request.temperature());
    if (request.maxTokens() > 0) {
      root.put("max_tokens", request.maxTokens());
    }
    if (request.jsonOutput()) {
      root.putObject("response_format").put("type", "json_object");
    }
    if (!request.tools().isEmpty()) {
      root.set("tools", WireJson.functionTools(request.tools()));
    }
    return root.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Override
  void addHeaders(HttpRequest.Builder builder) {
    builder.header("Accept", "text/event-stream");
    if (config().hasApiKey()) {
      builder.header("Authorization", "Bearer " + config().apiKey());
    }
  }

  @Override
  StreamDecoder newDecoder(ChatListener listener) {
    return new Decoder(listener);
  }

  @Override
  ChatException statusError(int status, String serverMessage) {
    return switch (status) {
      case 401, 403 ->
          fail(
              ChatException.Kind.PROTOCOL,
              "the server refused the credentials (HTTP "
                  + status
                  + ": "
                  + serverMessage
                  + "); "
                  + (config().hasApiKey() ? "check the API key in " : "no API key is set: set ")
                  + ChatConfig.ENV_OPENAI_API_KEY
                  + " (or "
                  + ChatConfig.ENV_OPENAI_API_KEY_FALLBACK
                  + ")",
              null);
      case 404 ->
          fail(
              ChatException.Kind.UNAVAILABLE,
              "model '"
                  + model()
                  + "' or the chat endpoint is not available (HTTP 404: "
                  + serverMessage
                  + "); check the model name and that the base URL includes the API version"
                  + " path, e.g. http://127.0.0.1:8080/v1",
              null);
      case 503 -> fail(ChatException.Kind.UNAVAILABLE, "HTTP 503: " + serverMessage, null);
      default -> fail(ChatException.Kind.PROTOCOL, "HTTP " + status + ": " + serverMessage, null);
    };
  }

  @Override
  String unreachableHint() {
    return "is the OpenAI-compatible server running? Start it, or point "
        + ChatConfig.ENV_OPENAI_URL
        + " at it";
  }

  @Override
  String terminator() {
    return "data: " + DONE;
  }

  private static ObjectNode message(ChatMessage message) {
    ObjectNode node = WireJson.MAPPER.createObjectNode();
    node.put("role", message.role());
    node.put("content", message.content());
    if (message.toolCallId() != null) {
      node.put("tool_call_id", message.toolCallId());
    }
    if (!message.toolCalls().isEmpty()) {
      ArrayNode calls = node.putArray("tool_calls");
      for (ChatResponse.ToolCall call : message.toolCalls()) {
        ObjectNode entry = calls.addObject().put("id", call.id()).put("type", "function");
        entry.putObject("function").put("name", call.name()).put("arguments", call.argumentsJson());
      }
    }
    return node;
  }

  /** SSE events to tokens; tool calls and usage are collected until {@code [DONE]}. */
  private final class Decoder implements StreamDecoder {
    private final ChatListener listener;
    private final SseEvents events = new SseEvents(source());
    private final StringBuilder content = new StringBuilder();
    private final Map<Integer, PendingCall> calls = new TreeMap<>();
    private String reportedModel = model();
    private int promptTokens = -1;
    private int completionTokens = -1;

    Decoder(ChatListener listener) {
      this.listener = listener;
    }

    @Override
    public boolean onLine(String line) throws ChatException {
      String data = events.onLine(line);
      return data != null && onEvent(data);
    }

    @Override
    public boolean onEnd() throws ChatException {
      String data = events.flush();
      return data != null && onEvent(data);
    }

    @Override
    public ChatResponse response() {
      List<ChatResponse.ToolCall> toolCalls = new ArrayList<>();
      calls.forEach((index, call) -> toolCalls.add(call.build(index)));
      return new ChatResponse(
          content.toString(), toolCalls, reportedModel, promptTokens, completionTokens);
    }

    private boolean onEvent(String data) throws ChatException {
      if (data.strip().equals(DONE)) {
        return true;
      }
      JsonNode chunk = WireJson.parseEvent(data, source(), "an event");
      if (chunk.hasNonNull("error")) {
        throw fail(
            ChatException.Kind.PROTOCOL,
            "the server reported an error mid-stream: " + WireJson.serverMessage(data),
            null);
      }
      reportedModel = chunk.path("model").asText(reportedModel);
      JsonNode usage = chunk.path("usage");
      if (usage.isObject()) {
        promptTokens = usage.path("prompt_tokens").asInt(-1);
        completionTokens = usage.path("completion_tokens").asInt(-1);
      }
      JsonNode delta = chunk.path("choices").path(0).path("delta");
      String token = WireJson.text(delta.path("content"));
      if (!token.isEmpty()) {
        content.append(token);
        listener.onToken(token);
      }
      for (JsonNode fragment : delta.path("tool_calls")) {
        calls
            .computeIfAbsent(fragment.path("index").asInt(0), i -> new PendingCall())
            .add(fragment);
      }
      return false;
    }
  }

  /** A tool call arriving in fragments: id and name once, arguments in pieces. */
  private static final class PendingCall {
    private String id = "";
    private String name = "";
    private final StringBuilder arguments = new StringBuilder();

    void add(JsonNode fragment) {
      if (id.isEmpty()) {
        id = WireJson.text(fragment.path("id"));
      }
      JsonNode function = fragment.path("function");
      if (name.isEmpty()) {
        name = WireJson.text(function.path("name"));
      }
      arguments.append(WireJson.text(function.path("arguments")));
    }

    ChatResponse.ToolCall build(int index) {
      String args = arguments.isEmpty() ? "{}" : arguments.toString();
      return new ChatResponse.ToolCall(id.isEmpty() ? "call_" + index : id, name, args);
    }
  }
}
