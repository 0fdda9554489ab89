package dev.brain.server.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Times in the CLI's text output, for people: {@code 2026-11-28 19:29:54 UTC (3 min ago)}, to the
 * second and with how long ago (or how soon). JSON keeps ISO-8601 with its full precision.
 */
final class HumanTime {
  private static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private HumanTime() {}

  /** {@code at} for people, relative to now. */
  static String of(Instant at) {
    return of(at, Instant.now());
  }

  /** {@code at} for people, relative to {@code now}. */
  static String of(Instant at, Instant now) {
    return FORMAT.format(at) + " (" + relative(Duration.between(at, now)) + ")";
  }

  /** "just now", "3 min ago", "5 h ago", "2 days ago"; a negative age is "in 3 min". */
  static String relative(Duration age) {
    boolean future = age.isNegative();
    long seconds = Math.abs(age.toSeconds());
    if (seconds < 60) {
      return future ? "in under a minute" : "just now";
    }
    String span;
    if (seconds < 3600) {
      span = seconds / 60 + " min";
    } else if (seconds < 48 * 3600) {
      span = seconds / 3600 + " h";
    } else {
      span = seconds / 86400 + " days";
    }
    return future ? "in " + span : span + " ago";
  }
}
