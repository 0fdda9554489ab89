package dev.brain.research;

import dev.brain.models.chat.ChatException;
import dev.brain.models.chat.ChatListener;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatRequest;
import dev.brain.models.chat.ChatResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A chat model for the runner's tests, with the providers' contract: it answers from a script
 * (streaming the answer word by word), fails with a typed {@link ChatException}, or takes its time
 * — honouring the request's timeout ({@code TIMEOUT}) and an interrupt ({@code CANCELLED}, the
 * interrupt status left set) like the real providers. Records every request.
 */
final class TestChatModel implements ChatModel {

  private final String id;
  private final Function<ChatRequest, String> answer;
  private final ChatException failure;
  private final Duration delay;
  final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

  private TestChatModel(
      String id, Function<ChatRequest, String> answer, ChatException failure, Duration delay) {
    this.id = id;
    this.answer = answer;
    this.failure = failure;
    this.delay = delay;
  }

  /** Answers {@code text} to every request. */
  static TestChatModel answering(String text) {
    return new TestChatModel("ollama/test", r -> text, null, Duration.ZERO);
  }

  /** Answers what {@code script} makes of each request. */
  static TestChatModel answering(Function<ChatRequest, String> script) {
    return new TestChatModel("ollama/test", script, null, Duration.ZERO);
  }

  /** Fails every call with {@code kind} and {@code message}. */
  static TestChatModel failing(ChatException.Kind kind, String message) {
    return new TestChatModel("ollama/test", null, new ChatException(kind, message), Duration.ZERO);
  }

  /** Takes {@code delay} before answering {@code text}. */
  static TestChatModel slow(Duration delay, String text) {
    return new TestChatModel("ollama/slow", r -> text, null, delay);
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public ChatResponse chat(ChatRequest request, ChatListener listener) throws ChatException {
    requests.add(request);
    if (failure != null) {
      throw failure;
    }
    if (!delay.isZero()) {
      long wait = Math.min(delay.toMillis(), request.timeout().toMillis());
      try {
        Thread.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ChatException(ChatException.Kind.CANCELLED, id + ": cancelled by interrupt");
      }
      if (wait < delay.toMillis()) {
        throw new ChatException(
            ChatException.Kind.TIMEOUT, id + ": no answer within " + request.timeout());
      }
    }
    String text = answer.apply(request);
    int tokens = 0;
    for (String word : text.split("(?<= )")) {
      listener.onToken(word);
      tokens++;
    }
    return new ChatResponse(text, List.of(), id, 10, tokens);
  }

  @Override
  public void close() {}
}
