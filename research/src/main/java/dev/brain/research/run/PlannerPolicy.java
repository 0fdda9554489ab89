package dev.brain.research.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.brain.retrieval.InvalidSearchException;
import java.util.Locale;

/**
 * When a run with a model planner asks it for a plan. A model call costs seconds; a question the
 * deterministic plan already finds strong evidence for gains little from it.
 */
public enum PlannerPolicy {
  /**
   * Search with the deterministic plan first and ask the model only when that evidence is weak (or
   * missing): a follow-up or a plain question with strong evidence never waits for the model.
   */
  AUTO,
  /** Ask the model on every run, before searching. */
  ALWAYS;

  /** The policy's name in brain.yaml and JSON. */
  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The policy named {@code name} ({@code auto} or {@code always}).
   *
   * @throws InvalidSearchException naming the allowed values otherwise
   */
  @JsonCreator
  public static PlannerPolicy parse(String name) {
    for (PlannerPolicy p : values()) {
      if (p.wireName().equals(name)) {
        return p;
      }
    }
    throw new InvalidSearchException(
        "planner_policy", "must be auto or always, got " + (name == null ? "nothing" : name));
  }
}
