package dev.brain.research.synthesis;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.brain.retrieval.InvalidSearchException;
import java.time.Duration;

/**
 * How an answer is synthesized from a pack.
 *
 * @param maxEvidenceChars the evidence budget of the synthesis input, 500 to 1,000,000; default
 *     {@value #DEFAULT_MAX_EVIDENCE_CHARS}
 * @param timeout how long a chat model may take for the whole answer; default 2 minutes
 */
public record SynthesisOptions(
    @JsonProperty("max_evidence_chars") int maxEvidenceChars, Duration timeout) {

  /** Default {@link #maxEvidenceChars()}. */
  public static final int DEFAULT_MAX_EVIDENCE_CHARS = 24_000;

  /** Default {@link #timeout()}. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  /**
   * @throws InvalidSearchException if a value is out of range
   */
  public SynthesisOptions {
    if (maxEvidenceChars < 500 || maxEvidenceChars > 1_000_000) {
      throw new InvalidSearchException(
          "max_evidence_chars", "must be between 500 and 1000000, got " + maxEvidenceChars);
    }
    timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
    if (timeout.isNegative() || timeout.isZero()) {
      throw new InvalidSearchException("timeout", "must be positive, got " + timeout);
    }
  }

  /** Every default. */
  public static SynthesisOptions defaults() {
    return new SynthesisOptions(DEFAULT_MAX_EVIDENCE_CHARS, DEFAULT_TIMEOUT);
  }

  /** These options with another evidence budget. */
  public SynthesisOptions withMaxEvidenceChars(int value) {
    return new SynthesisOptions(value, timeout);
  }

  /** These options with another model timeout. */
  public SynthesisOptions withTimeout(Duration value) {
    return new SynthesisOptions(maxEvidenceChars, value);
  }
}
