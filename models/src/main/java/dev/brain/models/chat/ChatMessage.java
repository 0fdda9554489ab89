package dev.brain.models.chat;

import java.util.List;
import java.util.Objects;

/**
 * One message of a chat.
 *
 * <p>Most messages are a role and a text. The two extra fields carry a tool-calling exchange back
 * to the model: an assistant message that asked for tool calls, and the {@code tool} message
 * answering one of them.
 *
 * @param role {@code system}, {@code user}, {@code assistant} or {@code tool}
 * @param content the text (empty, not null, for an assistant message that only calls tools)
 * @param toolCalls the tool calls an assistant message asked for (empty otherwise)
 * @param toolCallId for a {@code tool} message: the id of the call it answers (null otherwise)
 */
public record ChatMessage(
    String role, String content, List<ChatResponse.ToolCall> toolCalls, String toolCallId) {
  public ChatMessage {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
  }

  /** A message with a role and a text only. */
  public ChatMessage(String role, String content) {
    this(role, content, List.of(), null);
  }

  /** A system message. */
  public static ChatMessage system(String content) {
    return new ChatMessage("system", content);
  }

  /** A user message. */
  public static ChatMessage user(String content) {
    return new ChatMessage("user", content);
  }

  /** An assistant message, e.g. an earlier answer of the model. */
  public static ChatMessage assistant(String content) {
    return new ChatMessage("assistant", content);
  }

  /**
   * The assistant turn that asked for tool calls, to be followed by their {@link #tool} results.
   */
  public static ChatMessage assistant(String content, List<ChatResponse.ToolCall> toolCalls) {
    return new ChatMessage("assistant", content, toolCalls, null);
  }

  /** The result of the tool call {@code toolCallId}, as text (usually JSON). */
  public static ChatMessage tool(String toolCallId, String content) {
    return new ChatMessage("tool", content, List.of(), Objects.requireNonNull(toolCallId));
  }
}
