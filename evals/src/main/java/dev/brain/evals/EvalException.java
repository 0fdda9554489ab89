package dev.brain.evals;

/** An evaluation could not run: the input folder or options are wrong; the message says how. */
public final class EvalException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An error with a message naming the input and the fix. */
  public EvalException(String message) {
    super(message);
  }
}
