package dev.brain.server.http;

import io.helidon.http.Status;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The cap on synthesis and research runs served at once. A request beyond it is refused before its
 * stream starts with 503 and a {@code Retry-After} hint, rather than queued behind a slow model.
 */
final class RunLimiter {
  /** Seconds a refused client is told to wait. */
  static final long RETRY_AFTER_SECONDS = 5;

  private final int max;
  private final Semaphore permits;

  RunLimiter(int max) {
    this.max = max;
    this.permits = new Semaphore(max);
  }

  /**
   * One taken slot. Closing it gives the slot back; closing it again does nothing, so a stream can
   * free it the moment its work ends (before the client sees the stream close) and the request
   * handler can still close it in a {@code finally}.
   */
  final class Slot implements AutoCloseable {
    private final AtomicBoolean released = new AtomicBoolean();

    private Slot() {}

    @Override
    public void close() {
      if (released.compareAndSet(false, true)) {
        permits.release();
      }
    }
  }

  /**
   * Takes a slot, to be closed when the run has ended.
   *
   * @throws ApiException 503 {@code busy} with {@code Retry-After} when every slot is taken
   */
  Slot acquire() {
    if (!permits.tryAcquire()) {
      throw new ApiException(
          Status.SERVICE_UNAVAILABLE_503,
          new ApiError(
              "busy",
              max
                  + " research runs are already in progress (server.max-concurrent-runs); retry in"
                  + " a few seconds",
              null,
              List.of(),
              null),
          RETRY_AFTER_SECONDS);
    }
    return new Slot();
  }

  /** Runs in progress now. */
  int active() {
    return max - permits.availablePermits();
  }
}
