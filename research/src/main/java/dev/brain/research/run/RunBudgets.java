package dev.brain.research.run;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.brain.retrieval.InvalidSearchException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The bounds of one research run. Start from {@link #defaults()} and change fields with the {@code
 * with...} methods. Time budgets are wall-clock; the JSON form gives them in milliseconds.
 *
 * <p>How each bound acts: the overall {@code deadline} stops the run with {@code timeout_exceeded}
 * (a chat model call in flight is interrupted); the {@code planning} budget bounds the model
 * planner (on overrun the deterministic plan is used); {@code inspection} bounds the reading of the
 * top rows (rows left when it runs out are not inspected); {@code retrieval}, {@code synthesis} and
 * {@code verification} are hard (an overrun stops the run with {@code timeout_exceeded}, a
 * synthesis model call is cut at its budget); {@code trace} bounds retention pruning after the
 * trace is written (the trace itself is always written, also after a timeout).
 *
 * @param maxSteps most stages a run may start (planning, retrieval, inspection, judge, retry or
 *     expansion, preparation, synthesis, verification: 8 in a full run), 1 to 100; default {@value
 *     #DEFAULT_MAX_STEPS}. Reaching it stops the run with {@code max_steps_reached}
 * @param maxRetrievalPasses retrieval passes including the first: 1 (no retry or expansion) or 2
 *     (one focused retry or one related expansion); default 2
 * @param deadline the whole run; default 3 minutes
 * @param planning the model planner; default 20 seconds
 * @param retrieval each retrieval pass; default 30 seconds
 * @param inspection reading the top rows; default 10 seconds
 * @param synthesis the answer; default 2 minutes
 * @param verification the citation checks; default 5 seconds
 * @param trace retention pruning after the trace is written; default 10 seconds
 * @param inspectRows top rows inspected, 0 to 20; default {@value #DEFAULT_INSPECT_ROWS}
 * @param inspectChars longest inspected window per row, 200 to 20,000; default {@value
 *     #DEFAULT_INSPECT_CHARS}
 * @param relatedLimit most rows one related expansion adds, 0 to 50; default {@value
 *     #DEFAULT_RELATED_LIMIT}
 * @param retryAcceptLimit most new rows one focused retry adds, 0 to 50; default {@value
 *     #DEFAULT_RETRY_ACCEPT_LIMIT}
 * @param plannerPolicy when a model planner is asked ({@link PlannerPolicy}); default {@code auto}
 */
@JsonPropertyOrder({
  "max_steps",
  "max_retrieval_passes",
  "deadline_ms",
  "stage_budgets_ms",
  "inspect_rows",
  "inspect_chars",
  "related_limit",
  "retry_accept_limit",
  "planner_policy"
})
public record RunBudgets(
    @JsonProperty("max_steps") int maxSteps,
    @JsonProperty("max_retrieval_passes") int maxRetrievalPasses,
    @JsonIgnore Duration deadline,
    @JsonIgnore Duration planning,
    @JsonIgnore Duration retrieval,
    @JsonIgnore Duration inspection,
    @JsonIgnore Duration synthesis,
    @JsonIgnore Duration verification,
    @JsonIgnore Duration trace,
    @JsonProperty("inspect_rows") int inspectRows,
    @JsonProperty("inspect_chars") int inspectChars,
    @JsonProperty("related_limit") int relatedLimit,
    @JsonProperty("retry_accept_limit") int retryAcceptLimit,
    @JsonProperty("planner_policy") PlannerPolicy plannerPolicy) {

  /** Default {@link #maxSteps()}. */
  public static final int DEFAULT_MAX_STEPS = 10;

  /** Default {@link #inspectRows()}. */
  public static final int DEFAULT_INSPECT_ROWS = 5;

  /** Default {@link #inspectChars()}. */
  public static final int DEFAULT_INSPECT_CHARS = 1_600;

  /** Default {@link #relatedLimit()}. */
  public static final int DEFAULT_RELATED_LIMIT = 8;

  /** Default {@link #retryAcceptLimit()}. */
  public static final int DEFAULT_RETRY_ACCEPT_LIMIT = 4;

  /**
   * @throws InvalidSearchException if a value is out of range
   */
  public RunBudgets {
    requireRange("max_steps", maxSteps, 1, 100);
    requireRange("max_retrieval_passes", maxRetrievalPasses, 1, 2);
    requireRange("inspect_rows", inspectRows, 0, 20);
    requireRange("inspect_chars", inspectChars, 200, 20_000);
    requireRange("related_limit", relatedLimit, 0, 50);
    requireRange("retry_accept_limit", retryAcceptLimit, 0, 50);
    requirePositive("deadline", deadline);
    requirePositive("planning", planning);
    requirePositive("retrieval", retrieval);
    requirePositive("inspection", inspection);
    requirePositive("synthesis", synthesis);
    requirePositive("verification", verification);
    requirePositive("trace", trace);
    java.util.Objects.requireNonNull(plannerPolicy, "plannerPolicy");
  }

  /** Every default. */
  public static RunBudgets defaults() {
    return new RunBudgets(
        DEFAULT_MAX_STEPS,
        2,
        Duration.ofMinutes(3),
        Duration.ofSeconds(20),
        Duration.ofSeconds(30),
        Duration.ofSeconds(10),
        Duration.ofMinutes(2),
        Duration.ofSeconds(5),
        Duration.ofSeconds(10),
        DEFAULT_INSPECT_ROWS,
        DEFAULT_INSPECT_CHARS,
        DEFAULT_RELATED_LIMIT,
        DEFAULT_RETRY_ACCEPT_LIMIT,
        PlannerPolicy.AUTO);
  }

  /** The overall deadline in milliseconds (JSON). */
  @JsonProperty("deadline_ms")
  public long deadlineMs() {
    return deadline.toMillis();
  }

  /** Every stage budget in milliseconds, by stage wire name (JSON). */
  @JsonProperty("stage_budgets_ms")
  public Map<String, Long> stageBudgetsMs() {
    var out = new LinkedHashMap<String, Long>();
    out.put(RunStage.PLANNING.wireName(), planning.toMillis());
    out.put(RunStage.RETRIEVAL.wireName(), retrieval.toMillis());
    out.put(RunStage.INSPECTION.wireName(), inspection.toMillis());
    out.put(RunStage.SYNTHESIS.wireName(), synthesis.toMillis());
    out.put(RunStage.VERIFICATION.wireName(), verification.toMillis());
    out.put(RunStage.TRACE.wireName(), trace.toMillis());
    return out;
  }

  /** These budgets with another step limit. */
  public RunBudgets withMaxSteps(int value) {
    return copy(b -> b.maxSteps = value);
  }

  /** These budgets with 1 (no retry or expansion) or 2 retrieval passes. */
  public RunBudgets withMaxRetrievalPasses(int value) {
    return copy(b -> b.maxRetrievalPasses = value);
  }

  /** These budgets with another overall deadline. */
  public RunBudgets withDeadline(Duration value) {
    return copy(b -> b.deadline = value);
  }

  /** These budgets with another budget for {@code stage} (a stage without a budget is refused). */
  public RunBudgets withStageBudget(RunStage stage, Duration value) {
    return copy(
        b -> {
          switch (stage) {
            case PLANNING -> b.planning = value;
            case RETRIEVAL -> b.retrieval = value;
            case INSPECTION -> b.inspection = value;
            case SYNTHESIS -> b.synthesis = value;
            case VERIFICATION -> b.verification = value;
            case TRACE -> b.trace = value;
            default ->
                throw new InvalidSearchException(
                    "stage",
                    stage.wireName()
                        + " has no budget of its own; budgeted stages: "
                        + String.join(", ", stageBudgetsMs().keySet()));
          }
        });
  }

  /** These budgets inspecting another number of rows with another window size. */
  public RunBudgets withInspection(int rows, int chars) {
    return copy(
        b -> {
          b.inspectRows = rows;
          b.inspectChars = chars;
        });
  }

  /** These budgets with other limits of new rows from an expansion and from a retry. */
  public RunBudgets withAddedRowLimits(int related, int retryAccepted) {
    return copy(
        b -> {
          b.relatedLimit = related;
          b.retryAcceptLimit = retryAccepted;
        });
  }

  /** These budgets asking a model planner under another policy. */
  public RunBudgets withPlannerPolicy(PlannerPolicy value) {
    return copy(b -> b.plannerPolicy = value);
  }

  private RunBudgets copy(Consumer<Copy> change) {
    var copy = new Copy(this);
    change.accept(copy);
    return copy.build();
  }

  /** The fields of a {@code RunBudgets} to change before building a checked copy. */
  private static final class Copy {
    int maxSteps;
    int maxRetrievalPasses;
    Duration deadline;
    Duration planning;
    Duration retrieval;
    Duration inspection;
    Duration synthesis;
    Duration verification;
    Duration trace;
    int inspectRows;
    int inspectChars;
    int relatedLimit;
    int retryAcceptLimit;
    PlannerPolicy plannerPolicy;

    Copy(RunBudgets b) {
      maxSteps = b.maxSteps;
      maxRetrievalPasses = b.maxRetrievalPasses;
      deadline = b.deadline;
      planning = b.planning;
      retrieval = b.retrieval;
      inspection = b.inspection;
      synthesis = b.synthesis;
      verification = b.verification;
      trace = b.trace;
      inspectRows = b.inspectRows;
      inspectChars = b.inspectChars;
      relatedLimit = b.relatedLimit;
      retryAcceptLimit = b.retryAcceptLimit;
      plannerPolicy = b.plannerPolicy;
    }

    RunBudgets build() {
      return new RunBudgets(
          maxSteps,
          maxRetrievalPasses,
          deadline,
          planning,
          retrieval,
          inspection,
          synthesis,
          verification,
          trace,
          inspectRows,
          inspectChars,
          relatedLimit,
          retryAcceptLimit,
          plannerPolicy);
    }
  }

  /** The budget of {@code stage}, or {@code null} for stages bounded only by the deadline. */
  public Duration budget(RunStage stage) {
    return switch (stage) {
      case PLANNING -> planning;
      case RETRIEVAL, RETRY, EXPANSION -> retrieval;
      case INSPECTION -> inspection;
      case SYNTHESIS -> synthesis;
      case VERIFICATION -> verification;
      case TRACE -> trace;
      default -> null;
    };
  }

  private static void requireRange(String field, int value, int min, int max) {
    if (value < min || value > max) {
      throw new InvalidSearchException(
          field, "must be between " + min + " and " + max + ", got " + value);
    }
  }

  private static void requirePositive(String field, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new InvalidSearchException(field, "must be a positive duration, got " + value);
    }
  }
}
