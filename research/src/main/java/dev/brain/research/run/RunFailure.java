package dev.brain.research.run;

/**
 * What cut a run short or went wrong in it.
 *
 * @param stage the stage it happened in
 * @param code {@value #DEADLINE_EXCEEDED}, {@value #STAGE_BUDGET_EXCEEDED}, {@value #CANCELLED},
 *     {@value #MAX_STEPS}, {@value #PLANNER_ERROR}, {@value #MODEL_UNAVAILABLE}, {@value
 *     #MODEL_ERROR}, {@value #VERIFICATION_FAILED}, {@value #IO_ERROR} or {@value #INTERNAL_ERROR}
 * @param message what happened, in a sentence (redacted in traces)
 */
public record RunFailure(RunStage stage, String code, String message) {

  /** The overall deadline passed. */
  public static final String DEADLINE_EXCEEDED = "deadline_exceeded";

  /** A stage took longer than its budget. */
  public static final String STAGE_BUDGET_EXCEEDED = "stage_budget_exceeded";

  /** The caller interrupted the run's thread (e.g. the web client went away). */
  public static final String CANCELLED = "cancelled";

  /** The step budget was used up. */
  public static final String MAX_STEPS = "max_steps";

  /** The model planner failed; the deterministic plan was used. */
  public static final String PLANNER_ERROR = "planner_error";

  /** The synthesis model could not be reached. */
  public static final String MODEL_UNAVAILABLE = "model_unavailable";

  /** The synthesis model failed. */
  public static final String MODEL_ERROR = "model_error";

  /** The answer failed a citation hard gate. */
  public static final String VERIFICATION_FAILED = "verification_failed";

  /** The index could not be read. */
  public static final String IO_ERROR = "io_error";

  /** A bug: an unexpected exception. */
  public static final String INTERNAL_ERROR = "internal_error";
}
