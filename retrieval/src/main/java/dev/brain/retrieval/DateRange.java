package dev.brain.retrieval;

import java.time.Instant;
import java.util.Objects;

/**
 * A range filter on one of a record's dates. Both ends are inclusive; a {@code null} end is open.
 * Records without the date never match.
 *
 * @param field which date to filter on
 * @param from earliest accepted instant, or {@code null}
 * @param to latest accepted instant, or {@code null}
 */
public record DateRange(DateField field, Instant from, Instant to) {

  /** The record dates a range can filter on. */
  public enum DateField implements WireName {
    /** When the user created or saved the record. */
    CREATED_AT,
    /** When the source was published. */
    PUBLISHED_AT;
  }

  /**
   * @throws InvalidSearchException if both ends are open or {@code to} is before {@code from}
   */
  public DateRange {
    Objects.requireNonNull(field, "field");
    if (from == null && to == null) {
      throw new InvalidSearchException(
          "date_range", "a date range on " + field.wireName() + " needs a start or an end");
    }
    if (from != null && to != null && to.isBefore(from)) {
      throw new InvalidSearchException(
          "date_range",
          "the range on "
              + field.wireName()
              + " ends ("
              + to
              + ") before it starts ("
              + from
              + ")");
    }
  }

  /** Records created at or after {@code from} and at or before {@code to} (either may be null). */
  public static DateRange created(Instant from, Instant to) {
    return new DateRange(DateField.CREATED_AT, from, to);
  }

  /**
   * Records published at or after {@code from} and at or before {@code to} (either may be null).
   */
  public static DateRange published(Instant from, Instant to) {
    return new DateRange(DateField.PUBLISHED_AT, from, to);
  }
}
