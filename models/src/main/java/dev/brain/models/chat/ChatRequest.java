package dev.brain.models.chat;

import java.time.Duration;
import java.util.List;

/**
 * What to ask a chat model.
 *
 * @param messages the conversation, system message first
 * @param timeout overall limit for the whole exchange, stream included
 * @param jsonOutput ask the server for a JSON object answer (Ollama {@code format: "json"}, OpenAI
 *     {@code response_format: json_object})
 * @param temperature sampling temperature; brain uses 0 for plans and low values for answers
 * @param maxTokens upper bound of generated tokens (0 = server default)
 * @param tools tools the model may call (OpenAI-compatible servers; empty for none)
 */
public record ChatRequest(
    List<ChatMessage> messages,
    Duration timeout,
    boolean jsonOutput,
    double temperature,
    int maxTokens,
    List<ToolSpec> tools) {
  public ChatRequest {
    messages = List.copyOf(messages);
    tools = tools == null ? List.of() : List.copyOf(tools);
    if (messages.isEmpty()) {
      throw new IllegalArgumentException("a chat request needs at least one message");
    }
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
  }

  /**
   * A tool the model may call.
   *
   * @param name tool name
   * @param description what it does, for the model
   * @param parametersJsonSchema JSON schema of its arguments, as JSON text
   */
  public record ToolSpec(String name, String description, String parametersJsonSchema) {}
}
