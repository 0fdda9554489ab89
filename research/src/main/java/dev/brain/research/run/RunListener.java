package dev.brain.research.run;

/**
 * Receives a research run as it happens, on the thread that runs it: every {@link ProgressEvent} in
 * order, and the answer's tokens while a chat model streams them. Implementations should be quick
 * (a slow listener slows the run); an exception thrown by a listener is ignored.
 */
public interface RunListener {

  /** A listener that ignores everything. */
  RunListener NONE = event -> {};

  /** The next progress event. */
  void onProgress(ProgressEvent event);

  /** The next piece of the answer text, while a chat model streams it (none for extractive). */
  default void onToken(String token) {}
}
