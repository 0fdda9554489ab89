package dev.brain.models.chat;

import java.util.List;

/**
 * A finished answer.
 *
 * @param content the whole answer text (tokens concatenated)
 * @param toolCalls tool calls the model asked for (empty when none)
 * @param model the model name the server reported
 * @param promptTokens prompt tokens the server reported (-1 if unknown)
 * @param completionTokens generated tokens the server reported (-1 if unknown)
 */
public record ChatResponse(
    String content,
    List<ToolCall> toolCalls,
    String model,
    int promptTokens,
    int completionTokens) {
  public ChatResponse {
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
  }

  /**
   * A call of a tool by the model.
   *
   * @param id the call id (OpenAI) or a generated one
   * @param name the tool name
   * @param argumentsJson the arguments as JSON text
   */
  public record ToolCall(String id, String name, String argumentsJson) {}
}
