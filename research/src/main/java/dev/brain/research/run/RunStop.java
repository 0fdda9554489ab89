package dev.brain.research.run;

/** A stop of a run before its normal end, with the stop reason and what cut it short. */
final class RunStop extends RuntimeException {
  private static final long serialVersionUID = 1L;
  final transient StopReason reason;
  final transient RunFailure failure;

  RunStop(StopReason reason, RunFailure failure) {
    super(failure.message(), null, false, false);
    this.reason = reason;
    this.failure = failure;
  }
}
