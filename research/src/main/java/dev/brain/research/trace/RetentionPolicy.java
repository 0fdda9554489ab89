package dev.brain.research.trace;

import dev.brain.retrieval.InvalidSearchException;
import java.time.Duration;

/**
 * Which trace directories pruning keeps: the newest {@code keepNewest} and every one younger than
 * {@code maxAge}; a directory goes only when it is outside both (and is not an active run). {@code
 * keepAll} switches pruning off, e.g. while tuning.
 *
 * @param keepNewest how many of the newest traces are always kept; default {@value
 *     #DEFAULT_KEEP_NEWEST}
 * @param maxAge traces younger than this are always kept; default 180 days
 * @param keepAll never delete anything
 */
public record RetentionPolicy(int keepNewest, Duration maxAge, boolean keepAll) {

  /** Default {@link #keepNewest()}. */
  public static final int DEFAULT_KEEP_NEWEST = 500;

  /** Default {@link #maxAge()}. */
  public static final Duration DEFAULT_MAX_AGE = Duration.ofDays(180);

  /**
   * @throws InvalidSearchException if {@code keepNewest} is negative or {@code maxAge} negative
   */
  public RetentionPolicy {
    if (keepNewest < 0) {
      throw new InvalidSearchException("keep", "must be 0 or more, got " + keepNewest);
    }
    maxAge = maxAge == null ? DEFAULT_MAX_AGE : maxAge;
    if (maxAge.isNegative()) {
      throw new InvalidSearchException("max_age", "must not be negative, got " + maxAge);
    }
  }

  /** Keep the newest 500 and anything younger than 180 days. */
  public static RetentionPolicy defaults() {
    return new RetentionPolicy(DEFAULT_KEEP_NEWEST, DEFAULT_MAX_AGE, false);
  }

  /** Never delete anything. */
  public static RetentionPolicy keepEverything() {
    return new RetentionPolicy(DEFAULT_KEEP_NEWEST, DEFAULT_MAX_AGE, true);
  }
}
