package dev.brain.models.chat;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A response body handed from the HTTP client's threads to the calling thread.
 *
 * <p>The caller polls with a deadline, so a stalled stream ends in a timeout, an interrupt ends it
 * at once, and {@link #cancel()} cancels the subscription, which makes the client close the
 * connection. At most {@value #WINDOW} buffer lists are in flight, so a server cannot run far ahead
 * of a slow listener, yet a stream of tiny chunks does not pay a thread hand-off per chunk.
 */
final class BodyStream implements Flow.Subscriber<List<ByteBuffer>> {

  /** What {@link #next} returns: bytes, the end of the body, or the client's failure. */
  sealed interface Signal {}

  record Bytes(List<ByteBuffer> buffers) implements Signal {}

  record End() implements Signal {}

  record Failure(Throwable error) implements Signal {}

  private static final End END = new End();
  private static final int WINDOW = 16;

  private final LinkedBlockingQueue<Signal> queue = new LinkedBlockingQueue<>();
  private final Object lock = new Object();
  private Flow.Subscription subscription;
  private boolean cancelled;
  private boolean finished;

  @Override
  public void onSubscribe(Flow.Subscription s) {
    synchronized (lock) {
      subscription = s;
      if (cancelled) {
        s.cancel();
        return;
      }
    }
    s.request(WINDOW);
  }

  @Override
  public void onNext(List<ByteBuffer> item) {
    queue.add(new Bytes(item));
  }

  @Override
  public void onError(Throwable error) {
    markFinished();
    queue.add(new Failure(error));
  }

  @Override
  public void onComplete() {
    markFinished();
    queue.add(END);
  }

  /**
   * The next signal, or null when none arrived within {@code timeoutNanos}.
   *
   * @throws InterruptedException when the calling thread is interrupted while waiting
   */
  Signal next(long timeoutNanos) throws InterruptedException {
    Signal signal = queue.poll(Math.max(0, timeoutNanos), TimeUnit.NANOSECONDS);
    if (signal instanceof Bytes) {
      requestMore();
    }
    return signal;
  }

  /**
   * Stops a body that has not ended; the client then closes the connection instead of reusing it.
   * Safe to call at any time, repeatedly.
   */
  void cancel() {
    Flow.Subscription s;
    synchronized (lock) {
      cancelled = true;
      s = finished ? null : subscription;
    }
    if (s != null) {
      s.cancel();
    }
  }

  private void markFinished() {
    synchronized (lock) {
      finished = true;
    }
  }

  private void requestMore() {
    Flow.Subscription s;
    synchronized (lock) {
      s = cancelled ? null : subscription;
    }
    if (s != null) {
      s.request(1);
    }
  }
}
