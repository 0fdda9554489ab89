package dev.brain.server.chat;

/**
 * A conversation request that cannot be served, with a message naming the input and the fix; the
 * HTTP API maps its {@link Kind} to a status once, the CLI prints the message.
 */
public final class ConversationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Kind {
    /** No conversation has that id. */
    NOT_FOUND,
    /** A malformed id, title or turn. */
    INVALID,
    /** Past a size bound (turns, characters, bytes). */
    TOO_LARGE,
    /** A saved file that cannot be read. */
    UNREADABLE
  }

  private final Kind kind;
  private final String field;

  ConversationException(Kind kind, String message, String field) {
    super(message);
    this.kind = kind;
    this.field = field;
  }

  /** What went wrong. */
  public Kind kind() {
    return kind;
  }

  /** The request field at fault, or {@code null}. */
  public String field() {
    return field;
  }
}
