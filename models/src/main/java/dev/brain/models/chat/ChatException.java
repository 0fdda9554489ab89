package dev.brain.models.chat;

/**
 * A chat exchange failed. The {@link Kind} decides what the caller does: an unavailable model
 * leaves retrieval results standing and marks the answer {@code unavailable}; a timeout or protocol
 * error marks it {@code error}.
 */
public final class ChatException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Why the exchange failed. */
  public enum Kind {
    /** The server could not be reached (connection refused, unknown host) or lacks the model. */
    UNAVAILABLE,
    /** The exchange did not finish within the request's timeout. */
    TIMEOUT,
    /** The server answered something that is not the expected wire format, or an HTTP error. */
    PROTOCOL,
    /** The configuration forbids this call, e.g. a hosted base URL without explicit opt-in. */
    REFUSED,
    /** The caller cancelled (interrupted) the exchange. */
    CANCELLED
  }

  private final Kind kind;

  /** A failure of the given kind; the message names the model, the URL and the fix. */
  public ChatException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  /** A failure of the given kind without a cause. */
  public ChatException(Kind kind, String message) {
    this(kind, message, null);
  }

  /** Why the exchange failed. */
  public Kind kind() {
    return kind;
  }
}
