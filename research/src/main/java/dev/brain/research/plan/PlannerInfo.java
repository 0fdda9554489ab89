package dev.brain.research.plan;

/**
 * The planner fields of a query plan: who planned, with which model, and what went wrong.
 *
 * @param planner {@code deterministic} or {@code model_assisted}
 * @param model the planner model's id, or {@code null}
 * @param error why the model planner failed, or {@code null}
 *     <p>Research-internal: public only for the other research packages; not API.
 */
public record PlannerInfo(String planner, String model, String error) {
  /** The deterministic planner's fields. */
  public static final PlannerInfo DETERMINISTIC =
      new PlannerInfo(QueryPlan.DETERMINISTIC, null, null);
}
