package dev.brain.research;

/**
 * The planner fields of a query plan: who planned, with which model, and what went wrong.
 *
 * @param planner {@code deterministic} or {@code model_assisted}
 * @param model the planner model's id, or {@code null}
 * @param error why the model planner failed, or {@code null}
 */
record PlannerInfo(String planner, String model, String error) {
  /** The deterministic planner's fields. */
  static final PlannerInfo DETERMINISTIC = new PlannerInfo(QueryPlan.DETERMINISTIC, null, null);
}
