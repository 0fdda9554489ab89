package dev.brain.models.chat;

import java.util.Objects;

/**
 * One message of a chat.
 *
 * @param role {@code system}, {@code user}, {@code assistant} or {@code tool}
 * @param content the text
 */
public record ChatMessage(String role, String content) {
  public ChatMessage {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
  }

  /** A system message. */
  public static ChatMessage system(String content) {
    return new ChatMessage("system", content);
  }

  /** A user message. */
  public static ChatMessage user(String content) {
    return new ChatMessage("user", content);
  }
}
