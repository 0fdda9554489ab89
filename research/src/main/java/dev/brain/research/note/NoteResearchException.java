package dev.brain.research.note;

import dev.brain.models.chat.ChatException;

/**
 * Why note research refused or failed, in words a user can act on; nothing was written. The reason
 * lets each surface map it once (exit code, HTTP status, MCP error).
 */
public final class NoteResearchException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What kind of problem it is. */
  public enum Reason {
    /** The request itself is wrong: a path outside the collections, a binary file, a bad option. */
    INVALID_INPUT,
    /** The note does not exist. */
    NOT_FOUND,
    /** The note changed on disk while it was being researched. */
    CONFLICT,
    /** The chat model failed or answered something unusable. */
    MODEL_FAILED,
    /** Every topic failed to research: nothing was found to write. */
    RESEARCH_FAILED,
    /** The synthesized section cited a note or URL that is not real. */
    VERIFICATION_FAILED
  }

  private final Reason reason;
  private final String field;

  /** A problem of {@code reason}, about request field {@code field} (may be {@code null}). */
  public NoteResearchException(Reason reason, String message, String field) {
    super(message);
    this.reason = reason;
    this.field = field;
  }

  NoteResearchException(Reason reason, String message) {
    this(reason, message, null);
  }

  /** The chat model's failure {@code cause}, kept so a surface can tell an unreachable model. */
  NoteResearchException(String message, ChatException cause) {
    super(message, cause);
    this.reason = Reason.MODEL_FAILED;
    this.field = null;
  }

  /**
   * Whether the chat model could not be reached at all (its server down or refusing): the research
   * itself can run without it, as the other surfaces fall back to the evidence.
   */
  public boolean modelUnreachable() {
    return getCause() instanceof ChatException e && e.kind() == ChatException.Kind.UNAVAILABLE;
  }

  /** What kind of problem it is. */
  public Reason reason() {
    return reason;
  }

  /** The request field at fault ({@code path}, {@code depth}, ...), or {@code null}. */
  public String field() {
    return field;
  }
}
