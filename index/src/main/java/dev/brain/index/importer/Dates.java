package dev.brain.index.importer;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Lenient parsing of the dates people write in front matter and that pages and exports carry. Dates
 * and times without a zone are read as UTC, so the same file always gives the same instant.
 */
final class Dates {

  private static final List<DateTimeFormatter> LOCAL_DATE_TIMES =
      List.of(
          DateTimeFormatter.ISO_LOCAL_DATE_TIME,
          DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm[:ss]"),
          DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm"),
          DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm[:ss]"));

  /** Dates as front matter writes them: ISO, and with slashes or dots ({@code 2024/03/10}). */
  private static final List<DateTimeFormatter> LOCAL_DATES =
      List.of(
          DateTimeFormatter.ISO_LOCAL_DATE,
          DateTimeFormatter.ofPattern("yyyy/MM/dd"),
          DateTimeFormatter.ofPattern("yyyy.MM.dd"));

  private Dates() {}

  /** The instant a date string names, or {@code null} if it is blank or not a date. */
  static Instant parse(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String s = value.strip();
    try {
      return OffsetDateTime.parse(s).toInstant();
    } catch (DateTimeParseException e) {
      // not an offset date-time; try the other shapes
    }
    try {
      return Instant.parse(s);
    } catch (DateTimeParseException e) {
      // not a UTC instant
    }
    try {
      return OffsetDateTime.parse(s, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      // not an HTTP/RSS date
    }
    for (var format : LOCAL_DATE_TIMES) {
      try {
        return LocalDateTime.parse(s, format).toInstant(ZoneOffset.UTC);
      } catch (DateTimeParseException e) {
        // next shape
      }
    }
    String day = s.length() > 10 ? s.substring(0, 10) : s;
    for (var format : LOCAL_DATES) {
      try {
        return LocalDate.parse(day, format).atStartOfDay().toInstant(ZoneOffset.UTC);
      } catch (DateTimeParseException e) {
        // next shape
      }
    }
    return null;
  }

  /**
   * An epoch timestamp as bookmark exports write it: seconds, or milli- or microseconds in some
   * browsers' exports.
   */
  static Instant fromEpoch(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      long n = Long.parseLong(value.strip());
      if (n <= 0) {
        return null;
      }
      if (n > 100_000_000_000_000L) {
        return Instant.ofEpochMilli(n / 1000);
      }
      return n > 100_000_000_000L ? Instant.ofEpochMilli(n) : Instant.ofEpochSecond(n);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
