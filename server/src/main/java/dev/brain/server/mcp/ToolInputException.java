package dev.brain.server.mcp;

/**
 * A tool was called with an argument it cannot use; the message names the argument and what it must
 * be. Shown to the calling agent as a tool error, never as a stack trace.
 */
public final class ToolInputException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String argument;

  /** A problem with {@code argument}, described by {@code message}. */
  public ToolInputException(String argument, String message) {
    super(message);
    this.argument = argument;
  }

  /** The argument at fault, or {@code null} when the call as a whole is. */
  public String argument() {
    return argument;
  }
}
