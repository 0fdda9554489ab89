package dev.brain.models.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/** Shared pieces of the provider tests. */
final class ChatTesting {
  /** Short enough that timeout tests stay fast, long enough for a loopback round trip. */
  static final Duration SHORT_TIMEOUT = Duration.ofMillis(300);

  /** Tokens with multi-byte UTF-8 (2, 3 and 4 bytes), so byte splits cut through characters. */
  static final List<String> TOKENS =
      List.of("Brain ", "keeps ", "notes ", "from Zürich ", "— 日本語 ", "and 🧠", ".");

  private ChatTesting() {}

  static ChatRequest request(Duration timeout) {
    return new ChatRequest(
        List.of(ChatMessage.system("Answer only from the evidence."), ChatMessage.user("Why?")),
        timeout,
        false,
        0.2,
        0,
        List.of());
  }

  static ChatRequest request() {
    return request(Duration.ofSeconds(10));
  }

  /** What happened to a caller interrupted after its first token. */
  record Interruption(
      Throwable failure, Duration sinceInterrupt, boolean flagKept, boolean callerAlive) {}

  /** Runs {@code chat} on its own thread and interrupts that thread after the first token. */
  static Interruption interruptAfterFirstToken(ChatModel model, ChatRequest request)
      throws InterruptedException {
    CountDownLatch firstToken = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicBoolean flagKept = new AtomicBoolean();
    Thread caller =
        new Thread(
            () -> {
              try {
                model.chat(request, token -> firstToken.countDown());
              } catch (Throwable e) {
                failure.set(e);
                flagKept.set(Thread.currentThread().isInterrupted());
              }
            });
    caller.start();
    assertThat(firstToken.await(5, TimeUnit.SECONDS)).as("first token arrived").isTrue();
    long start = System.nanoTime();
    caller.interrupt();
    caller.join(5_000);
    return new Interruption(
        failure.get(),
        Duration.ofNanos(System.nanoTime() - start),
        flagKept.get(),
        caller.isAlive());
  }

  /** Milliseconds since {@code startNanos}. */
  static long millisSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }
}
