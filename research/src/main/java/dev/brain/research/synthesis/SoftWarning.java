package dev.brain.research.synthesis;

/**
 * An advisory finding of verification: recorded in the trace and shown with the answer, never a
 * reason to reject it (that is what the hard gates of {@link Verification} are for).
 *
 * @param gate the soft gate that found it ({@value #UNCITED_PARAGRAPH})
 * @param paragraph the 1-based paragraph (blank-line separated block) of the answer it is about
 * @param excerpt the paragraph's opening, at most {@value #EXCERPT_CHARS} characters
 * @param message one sentence saying what was found
 */
public record SoftWarning(String gate, int paragraph, String excerpt, String message) {
  /** A paragraph that states a fact and cites no record, nor follows a cited lead-in. */
  public static final String UNCITED_PARAGRAPH = "uncited_paragraph";

  /** The longest excerpt kept. */
  public static final int EXCERPT_CHARS = 120;
}
