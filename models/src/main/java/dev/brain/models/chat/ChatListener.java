package dev.brain.models.chat;

/** Receives a streamed answer piece by piece, on the thread that called {@link ChatModel#chat}. */
@FunctionalInterface
public interface ChatListener {

  /** A listener that ignores tokens. */
  ChatListener NONE = token -> {};

  /** The next piece of the answer text, in order. */
  void onToken(String token);
}
