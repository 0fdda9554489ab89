package dev.brain;

/**
 * A {@code brain.yaml}, environment variable or flag brain cannot use. The message names the file
 * and line (or the variable or flag), the key, the value and what is allowed; it is meant to be
 * shown to the user as it is.
 */
public final class BrainConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final boolean fromFlag;

  /** An error with a message for the user. */
  public BrainConfigException(String message) {
    this(message, false);
  }

  /**
   * An error with a message for the user.
   *
   * @param fromFlag whether a command-line flag gave the value (a usage error of the command)
   */
  public BrainConfigException(String message, boolean fromFlag) {
    super(message);
    this.fromFlag = fromFlag;
  }

  /**
   * Whether a command-line flag gave the value, rather than {@code brain.yaml} or the environment:
   * the CLI then reports a usage error (exit code 2), as for any other bad option.
   */
  public boolean fromFlag() {
    return fromFlag;
  }
}
