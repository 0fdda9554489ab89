package dev.brain.models.chat;

/**
 * Turns the lines of one streamed answer into tokens and a {@link ChatResponse}; one per exchange,
 * used on the calling thread only.
 */
interface StreamDecoder extends LineSplitter.LineSink {

  /**
   * Called when the body ends before {@link #onLine} reported the terminator, to deliver an event
   * still pending; returns true if that completed the stream.
   */
  default boolean onEnd() throws ChatException {
    return false;
  }

  /** The whole answer, once the terminator was seen. */
  ChatResponse response();
}
