package dev.brain.index;

import java.io.IOException;

/**
 * Another process (or another {@link BrainIndex} in this one) holds the index's write lock: only
 * one writer may open an index at a time.
 */
public final class IndexLockedException extends IOException {
  private static final long serialVersionUID = 1L;

  /** An exception naming the locked index folder, caused by Lucene's lock failure. */
  public IndexLockedException(String message, Throwable cause) {
    super(message, cause);
  }
}
