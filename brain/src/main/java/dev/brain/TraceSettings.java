package dev.brain;

import dev.brain.research.trace.RetentionPolicy;
import java.time.Duration;

/**
 * {@code traces.*}: retention of {@code <data>/research-runs}; a trace is kept if it is among the
 * newest {@code keepNewest} or younger than {@code maxAge}.
 *
 * @param keepNewest default {@value RetentionPolicy#DEFAULT_KEEP_NEWEST}
 * @param maxAge default 180d
 */
public record TraceSettings(int keepNewest, Duration maxAge) {

  /** The retention policy of these values. */
  public RetentionPolicy retention() {
    return new RetentionPolicy(keepNewest, maxAge, false);
  }

  /** The {@code traces.*} values of {@code r}: flag, environment, file or default. */
  static TraceSettings read(ConfigReader r) {
    return new TraceSettings(
        r.integer(
            "traces.keep-newest", null, RetentionPolicy.DEFAULT_KEEP_NEWEST, 0, Integer.MAX_VALUE),
        r.duration("traces.max-age", null, RetentionPolicy.DEFAULT_MAX_AGE, Duration.ZERO));
  }
}
