package dev.brain.server.http;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How long the server has had nothing to do: no request in flight (a stream counts until it ends)
 * since the last one finished. A server started in the background for the CLI exits after a while
 * of this ({@code server.idle-exit}).
 */
final class Activity {
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong lastNanos = new AtomicLong(System.nanoTime());

  void enter() {
    inFlight.incrementAndGet();
    lastNanos.set(System.nanoTime());
  }

  void exit() {
    lastNanos.set(System.nanoTime());
    inFlight.decrementAndGet();
  }

  /** Zero while a request is in flight, else the time since the last one ended. */
  Duration idle() {
    if (inFlight.get() > 0) {
      return Duration.ZERO;
    }
    return Duration.ofNanos(System.nanoTime() - lastNanos.get());
  }
}
