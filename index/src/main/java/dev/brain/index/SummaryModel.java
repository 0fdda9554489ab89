package dev.brain.index;

import dev.brain.models.chat.ChatConfig;
import dev.brain.models.chat.ChatModels;
import java.time.Duration;
import java.util.Objects;

/**
 * The chat model that writes summaries of long records ({@code index.summary-model}), in place of
 * their extractive ones, after a sync made them searchable and embedded them. A model summary is
 * versioned by {@link #version}: a record whose stored version matches is never summarized again; a
 * different model or {@link #PROMPT_VERSION} makes it again. A failed attempt is recorded on the
 * record with its reason and tried again by a later sync once {@link #retryAfter} has passed.
 *
 * @param spec the chat model, {@code ollama/<model>} or {@code openai/<model>}
 * @param servers where the model servers are (the {@code chat.*} settings)
 * @param timeout limit of one summary exchange; default 2 minutes
 * @param retryBackoff wait before the first retry of a failed record; default 1 minute, doubled
 *     with each further failure up to {@link #MAX_BACKOFF}; zero retries at the next sync
 */
public record SummaryModel(
    String spec, ChatConfig servers, Duration timeout, Duration retryBackoff) {

  /** The version of the summary prompt; a new one re-makes every model summary. */
  public static final String PROMPT_VERSION = "summary-prompt-v1";

  /** Default of {@link #timeout()}. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  /** Default of {@link #retryBackoff()}. */
  public static final Duration DEFAULT_RETRY_BACKOFF = Duration.ofMinutes(1);

  /** The longest wait between two attempts at one record. */
  public static final Duration MAX_BACKOFF = Duration.ofDays(1);

  public SummaryModel {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(servers, "servers");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(retryBackoff, "retryBackoff");
    if (ChatModels.isExtractive(spec)) {
      throw new IllegalArgumentException(
          "'extractive' is not a summary model: leave index.summary-model unset for extractive"
              + " summaries");
    }
    if (timeout.isNegative() || timeout.isZero() || retryBackoff.isNegative()) {
      throw new IllegalArgumentException(
          "summary model timeout must be positive and retry back-off not negative, got "
              + timeout
              + " and "
              + retryBackoff);
    }
  }

  /** {@code spec} on {@code servers} with the default timeout and back-off. */
  public static SummaryModel of(String spec, ChatConfig servers) {
    return new SummaryModel(spec, servers, DEFAULT_TIMEOUT, DEFAULT_RETRY_BACKOFF);
  }

  /** This model with another retry back-off. */
  public SummaryModel withRetryBackoff(Duration value) {
    return new SummaryModel(spec, servers, timeout, value);
  }

  /** The prefix every summary made by this model with this prompt has in its version. */
  String versionPrefix() {
    return spec.strip() + "|" + PROMPT_VERSION + "|";
  }

  /** The version of a summary this model writes from an input with hash {@code inputHash}. */
  String version(String inputHash) {
    return versionPrefix() + inputHash;
  }

  /**
   * How long to wait before trying a record again after its {@code failures}-th failure in a row:
   * the back-off doubled for each failure before it, at most {@link #MAX_BACKOFF}.
   */
  Duration retryAfter(int failures) {
    if (retryBackoff.isZero()) {
      return Duration.ZERO;
    }
    int doublings = Math.min(Math.max(failures - 1, 0), 20);
    Duration wait = retryBackoff.multipliedBy(1L << doublings);
    return wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait;
  }

  /** The spec only: the servers may carry an API key. */
  @Override
  public String toString() {
    return "SummaryModel[" + spec + "]";
  }
}
