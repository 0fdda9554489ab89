package dev.brain.server.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/** The JSON-RPC errors brain answers with, and what it does to the SDK's before they leave. */
final class JsonRpcErrors {
  private JsonRpcErrors() {}

  /**
   * {@code message} as it may leave the server: an error response whose message names Java types
   * (the SDK passes on its mapper's complaint about malformed params) becomes an invalid-params
   * error with a plain message; anything else is returned as it is.
   */
  static Object sanitized(McpSchema.JSONRPCMessage message) {
    if (!(message instanceof McpSchema.JSONRPCResponse response) || response.error() == null) {
      return message;
    }
    String text = response.error().message() == null ? "" : response.error().message();
    if (!JAVA_NAME.matcher(text).find()) {
      return message;
    }
    return error(
        response.id(),
        McpSchema.ErrorCodes.INVALID_PARAMS,
        "invalid params: a field is missing or has the wrong type for this method");
  }

  /**
   * The error answering request {@code id} whose handler failed with {@code failure}: invalid
   * params when the SDK could not map them, else an internal error (the log has the details).
   */
  static Map<String, Object> failed(Object id, Throwable failure) {
    String text = failure.getMessage() == null ? "" : failure.getMessage();
    if (JAVA_NAME.matcher(text).find()) {
      return error(
          id,
          McpSchema.ErrorCodes.INVALID_PARAMS,
          "invalid params: a field is missing or has the wrong type for this method");
    }
    return error(id, McpSchema.ErrorCodes.INTERNAL_ERROR, "internal error: " + text);
  }

  /** A Java class name, or Jackson's way of quoting one. */
  private static final Pattern JAVA_NAME =
      Pattern.compile("`|\\b(?:[a-z][a-z0-9_]*\\.){2,}[A-Z]\\w*|Cannot (?:construct|deserialize)");

  /**
   * A JSON-RPC error response; {@code id} is {@code null} when the message's id is unknown (the
   * SDK's response type refuses a null id, which JSON-RPC requires here).
   */
  static Map<String, Object> error(Object id, int code, String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("jsonrpc", McpSchema.JSONRPC_VERSION);
    response.put("id", id);
    response.put("error", error);
    return response;
  }
}
