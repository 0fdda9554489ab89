package dev.brain.index;

/**
 * The index on disk cannot be used with this configuration: it was built with another embedding
 * model, dimension or vector format, or by a newer brain with another schema. The message names
 * both sides and the fix (re-index into a new data directory, or delete the index).
 */
public final class IndexMismatchException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An exception with a message a user can act on. */
  public IndexMismatchException(String message) {
    super(message);
  }
}
