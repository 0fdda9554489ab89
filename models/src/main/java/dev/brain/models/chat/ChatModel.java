package dev.brain.models.chat;

/**
 * A chat model behind one streaming interface: Ollama's native API or any OpenAI-compatible server.
 * brain asks it for compact JSON plans and for cited answers; its output is derived text, never
 * evidence. Implementations are thread-safe.
 */
public interface ChatModel extends AutoCloseable {

  /** The configured id, e.g. {@code ollama/llama3.2} or {@code openai/gpt-4o-mini}. */
  String id();

  /**
   * Sends one chat request and streams the answer.
   *
   * <p>Tokens reach {@code listener} as they arrive. Interrupting the calling thread aborts the
   * exchange promptly (the HTTP request is cancelled, the connection closed) and throws a {@link
   * ChatException} of kind {@link ChatException.Kind#CANCELLED}; the thread's interrupt status
   * stays set. The request's timeout bounds the whole exchange, stream included.
   *
   * @return the whole answer once the stream ends
   * @throws ChatException typed: unavailable, timeout, protocol error, refused, cancelled
   */
  ChatResponse chat(ChatRequest request, ChatListener listener) throws ChatException;

  @Override
  void close();
}
