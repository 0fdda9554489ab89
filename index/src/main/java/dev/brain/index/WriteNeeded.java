package dev.brain.index;

/**
 * Thrown inside a sync that may not write ({@link BrainIndex#syncIfUnchanged}) at its first write,
 * embedding or commit that records more than the time: the sync stops there, having written
 * nothing, and its caller runs the real one. Never leaves the index module.
 */
final class WriteNeeded extends RuntimeException {
  private static final long serialVersionUID = 1L;

  WriteNeeded() {
    super("this sync has something to write", null, false, false);
  }
}
