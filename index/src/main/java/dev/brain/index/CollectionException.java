package dev.brain.index;

/** A collection cannot be added or used as asked; the message names the problem and the fix. */
public final class CollectionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An exception with a message for the user. */
  public CollectionException(String message) {
    super(message);
  }
}
