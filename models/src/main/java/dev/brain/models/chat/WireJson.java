package dev.brain.models.chat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** The JSON both wire formats share: parsing stream events, tool declarations, error bodies. */
final class WireJson {
  static final ObjectMapper MAPPER =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

  private static final int EXCERPT_CHARS = 300;

  private WireJson() {}

  /** Parses one stream event, which must be a JSON object; anything else is a protocol error. */
  static JsonNode parseEvent(String text, String source, String what) throws ChatException {
    JsonNode node;
    try {
      node = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new ChatException(
          ChatException.Kind.PROTOCOL,
          source + " sent " + what + " that is not JSON: '" + excerpt(text) + "'",
          e);
    }
    if (node == null || !node.isObject()) {
      throw new ChatException(
          ChatException.Kind.PROTOCOL,
          source + " sent " + what + " that is not a JSON object: '" + excerpt(text) + "'");
    }
    return node;
  }

  /** The node's text if it is a JSON string, else "" (absent, null and non-text alike). */
  static String text(JsonNode node) {
    return node.isTextual() ? node.asText() : "";
  }

  /** Tools in the function format both Ollama and OpenAI-compatible servers accept. */
  static ArrayNode functionTools(List<ChatRequest.ToolSpec> tools) {
    ArrayNode array = MAPPER.createArrayNode();
    for (ChatRequest.ToolSpec tool : tools) {
      ObjectNode function = array.addObject().put("type", "function").putObject("function");
      function.put("name", tool.name());
      if (tool.description() != null) {
        function.put("description", tool.description());
      }
      function.set("parameters", schema(tool));
    }
    return array;
  }

  /**
   * The error text of a server's error body: Ollama's {@code {"error": "..."}}, OpenAI's {@code
   * {"error": {"message": "..."}}}, or the start of the raw text.
   */
  static String serverMessage(String body) {
    if (body == null || body.isBlank()) {
      return "(empty body)";
    }
    try {
      JsonNode node = MAPPER.readTree(body);
      JsonNode error = node.path("error");
      String message =
          error.isTextual()
              ? error.asText()
              : error.path("message").asText(node.path("message").asText(""));
      if (!message.isBlank()) {
        return excerpt(message);
      }
    } catch (JsonProcessingException e) {
      // Not JSON (an HTML error page, plain text): show its start instead.
    }
    return excerpt(body);
  }

  /** The start of a text on one line, for messages. */
  static String excerpt(String text) {
    String flat = text.strip().replaceAll("\\s+", " ");
    return flat.length() <= EXCERPT_CHARS ? flat : flat.substring(0, EXCERPT_CHARS) + "…";
  }

  private static JsonNode schema(ChatRequest.ToolSpec tool) {
    String schema = tool.parametersJsonSchema();
    if (schema == null || schema.isBlank()) {
      ObjectNode empty = MAPPER.createObjectNode().put("type", "object");
      empty.putObject("properties");
      return empty;
    }
    try {
      return MAPPER.readTree(schema);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "tool '" + tool.name() + "': parametersJsonSchema is not JSON: " + e.getOriginalMessage(),
          e);
    }
  }
}
