package dev.brain.research.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * Looks at a tool call after the policy allowed it and before it runs, and may let it proceed,
 * rewrite its arguments, or halt it (the call is refused and the reason reported to the model).
 * Hooks run in registration order; a rewrite is what the next hook and the tool see.
 */
@FunctionalInterface
public interface ToolHook {

  /** The decision about one call of {@code tool} with {@code arguments}. */
  Decision beforeCall(String tool, JsonNode arguments);

  /**
   * What to do with a call.
   *
   * @param arguments the arguments to run with (null when halted)
   * @param haltReason why the call is halted, or null to run it
   */
  record Decision(JsonNode arguments, String haltReason) {

    /** Run the call as asked. */
    public static Decision proceed(JsonNode arguments) {
      return new Decision(Objects.requireNonNull(arguments), null);
    }

    /** Run the call with other arguments. */
    public static Decision rewrite(JsonNode arguments) {
      return new Decision(Objects.requireNonNull(arguments), null);
    }

    /** Do not run the call; {@code reason} is reported to the model. */
    public static Decision halt(String reason) {
      return new Decision(null, Objects.requireNonNull(reason));
    }

    /** Whether the call is halted. */
    public boolean halted() {
      return haltReason != null;
    }
  }
}
