package dev.brain.server.mcp;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.server.StrictUtf8;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.IOException;
import java.util.Map;

/**
 * Reads one incoming MCP message strictly, for both transports: exactly one JSON value (nothing
 * after it), with no member named twice, which must be a JSON-RPC 2.0 object — {@code "jsonrpc":
 * "2.0"}, an {@code id} that is a string or a whole number, a string {@code method} with object
 * {@code params}, or a response with a {@code result} or an {@code error}. Text that is not JSON is
 * a parse error (-32700); JSON that is no such message (an array or batch, a number, a string, a
 * wrong version, string params, a duplicate member, ...) is an invalid request (-32600) saying what
 * is wrong.
 */
final class JsonRpcReader {
  private JsonRpcReader() {}

  /** One JSON value and nothing after it. */
  private static final ObjectMapper ONE_VALUE =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /** As {@link #ONE_VALUE}, refusing an object that names a member twice. */
  private static final ObjectMapper NO_DUPLICATES =
      ONE_VALUE.copy().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  /** What a message read to: the message, or the error response to send instead. */
  sealed interface Read {}

  /** A well-formed JSON-RPC message. */
  record Message(JSONRPCMessage message) implements Read {}

  /**
   * A refused message.
   *
   * @param error the JSON-RPC error response (its {@code id} the message's when it had a valid one)
   */
  record Refused(Map<String, Object> error) implements Read {}

  /**
   * Reads a message from its bytes, which must be UTF-8: an invalid sequence (a stray byte, an
   * overlong form, an encoded surrogate) is a parse error (-32700) naming its byte offset, never
   * replaced by U+FFFD.
   */
  static Read read(McpJsonMapper mapper, byte[] bytes) {
    String text;
    try {
      text = StrictUtf8.decode(bytes);
    } catch (StrictUtf8.Invalid e) {
      return new Refused(
          JsonRpcErrors.error(
              null,
              McpSchema.ErrorCodes.PARSE_ERROR,
              "parse error: the message is not valid UTF-8 at byte offset "
                  + e.offset()
                  + "; send JSON encoded as UTF-8"));
    }
    return read(mapper, text);
  }

  static Read read(McpJsonMapper mapper, String text) {
    JsonNode tree = parse(ONE_VALUE, text);
    if (tree == null || tree.isMissingNode()) {
      return new Refused(
          JsonRpcErrors.error(
              null,
              McpSchema.ErrorCodes.PARSE_ERROR,
              "parse error: the message is not JSON (or has text after its end)"));
    }
    if (parse(NO_DUPLICATES, text) == null) {
      return invalid(null, "a member is named twice (two \"id\"s, say): which one counts?");
    }
    if (!tree.isObject()) {
      return invalid(
          null,
          tree.isArray()
              ? "batches are not supported: send one JSON-RPC message, a JSON object, at a time"
              : "a JSON-RPC message is a JSON object, not " + kind(tree));
    }
    JsonNode id = tree.get("id");
    Object validId = validId(id);
    String problem = problem(tree, id, validId);
    if (problem != null) {
      return invalid(validId, problem);
    }
    try {
      return new Message(McpSchema.deserializeJsonRpcMessage(mapper, text));
    } catch (IOException | RuntimeException e) {
      return invalid(validId, "not a JSON-RPC 2.0 message");
    }
  }

  private static JsonNode parse(ObjectMapper mapper, String text) {
    try {
      return mapper.readTree(text);
    } catch (IOException e) {
      return null;
    }
  }

  /** What makes the object {@code tree} no JSON-RPC 2.0 message, or {@code null}. */
  private static String problem(JsonNode tree, JsonNode id, Object validId) {
    JsonNode version = tree.get("jsonrpc");
    if (version == null || !version.isTextual() || !version.asText().equals("2.0")) {
      return "\"jsonrpc\" must be \"2.0\"";
    }
    if (id != null && validId == null) {
      return "\"id\" must be a string or a whole number";
    }
    JsonNode method = tree.get("method");
    if (method != null) {
      if (!method.isTextual() || method.asText().isEmpty()) {
        return "\"method\" must be a non-empty string";
      }
      JsonNode params = tree.get("params");
      if (params != null && !params.isObject()) {
        return "\"params\" must be an object, not " + kind(params);
      }
      return tree.has("result") || tree.has("error")
          ? "a request or notification has no \"result\" or \"error\""
          : null;
    }
    if (id == null || tree.has("result") == tree.has("error")) {
      return "a message needs a \"method\" (a request or notification), or an \"id\" with either a"
          + " \"result\" or an \"error\" (a response)";
    }
    return null;
  }

  /** The id as the SDK takes it (a string or a long), or {@code null} if it is neither. */
  private static Object validId(JsonNode id) {
    if (id == null) {
      return null;
    }
    if (id.isTextual()) {
      return id.asText();
    }
    return id.isIntegralNumber() && id.canConvertToLong() ? id.asLong() : null;
  }

  private static String kind(JsonNode node) {
    return switch (node.getNodeType()) {
      case ARRAY -> "an array";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      default -> "a " + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }

  private static Refused invalid(Object id, String why) {
    return new Refused(
        JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_REQUEST, "invalid request: " + why));
  }
}
