package dev.brain.research.run;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The overall deadline of one run. A shared watchdog thread marks the run expired at the deadline
 * and, if the run is inside a chat-model call at that moment, interrupts the run's thread so the
 * call is aborted at once (the providers cancel the HTTP exchange on interrupt). Outside model
 * calls nothing is interrupted (an interrupt must never reach index reads); the runner checks
 * {@link #expired()} between stages instead. An interrupt the watchdog caused is cleared when the
 * model call returns, so only a caller's own interrupt (a cancellation) stays visible.
 */
final class RunClock implements AutoCloseable {

  private static final ScheduledExecutorService WATCHDOG = watchdog();

  private final Thread owner = Thread.currentThread();
  private final long startNanos = System.nanoTime();
  private final long deadlineNanos;
  private final ScheduledFuture<?> timer;
  private boolean expired;
  private boolean inModelCall;
  private boolean interruptedByUs;

  RunClock(Duration deadline) {
    this.deadlineNanos = startNanos + deadline.toNanos();
    this.timer = WATCHDOG.schedule(this::expire, deadline.toNanos(), TimeUnit.NANOSECONDS);
  }

  private static ScheduledExecutorService watchdog() {
    var executor =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "brain-run-watchdog");
              t.setDaemon(true);
              return t;
            });
    executor.setRemoveOnCancelPolicy(true);
    return Executors.unconfigurableScheduledExecutorService(executor);
  }

  private synchronized void expire() {
    expired = true;
    if (inModelCall && !interruptedByUs) {
      interruptedByUs = true;
      owner.interrupt();
    }
  }

  /** Whether the deadline has passed. */
  synchronized boolean expired() {
    return expired || System.nanoTime() - deadlineNanos >= 0;
  }

  /** Milliseconds since the run started. */
  long elapsedMs() {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }

  /** Time left until the deadline (zero when passed). */
  Duration remaining() {
    long left = deadlineNanos - System.nanoTime();
    return left <= 0 ? Duration.ZERO : Duration.ofNanos(left);
  }

  /**
   * Runs a chat-model call that the deadline may interrupt. When the deadline has already passed
   * the thread is interrupted before the call, so the call returns at once as cancelled.
   */
  <T> T modelCall(Supplier<T> call) {
    synchronized (this) {
      inModelCall = true;
      if (expired() && !interruptedByUs) {
        interruptedByUs = true;
        owner.interrupt();
      }
    }
    try {
      return call.get();
    } finally {
      synchronized (this) {
        inModelCall = false;
        if (interruptedByUs) {
          Thread.interrupted(); // ours, not the caller's
          interruptedByUs = false;
        }
      }
    }
  }

  @Override
  public void close() {
    timer.cancel(false);
  }
}
