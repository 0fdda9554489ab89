package dev.brain;

/**
 * A {@code brain.yaml}, environment variable or flag brain cannot use. The message names the file
 * and line (or the variable or flag), the key, the value and what is allowed; it is meant to be
 * shown to the user as it is.
 */
public final class BrainConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** An error with a message for the user. */
  public BrainConfigException(String message) {
    super(message);
  }
}
