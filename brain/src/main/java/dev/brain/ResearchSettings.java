package dev.brain;

import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.run.PlannerPolicy;
import dev.brain.research.run.RunBudgets;
import dev.brain.research.synthesis.SynthesisOptions;
import java.time.Duration;

/**
 * {@code research.*}: the defaults of a research pack and the budgets of a run.
 *
 * @param limit evidence rows of a pack; default {@value ResearchOptions#DEFAULT_LIMIT}
 * @param maxCharsPerDoc longest excerpt per row; default {@value
 *     ResearchOptions#DEFAULT_MAX_CHARS_PER_DOC}
 * @param deadline a whole run; default 3m
 * @param maxSteps stages a run may start; default {@value RunBudgets#DEFAULT_MAX_STEPS}
 * @param maxRetrievalPasses 1 (no retry) or 2 (one retry or related expansion); default 2
 * @param plannerTimeout how long a model planner may take; default 20s
 * @param synthesisTimeout how long the answer may take; default 2m
 * @param plannerPolicy when a model planner is asked: {@code auto} (default: only when the
 *     deterministic plan's evidence is weak) or {@code always}
 * @param reviewModel a chat model ({@code ollama/<model>}, {@code openai/<model>}) asked to review
 *     each verified answer against its evidence, advisory only; default none
 * @param includeBrainWritten whether the {@code ## Research} sections brain wrote into notes may be
 *     evidence, labelled "written by brain"; default false (they are brain's text, not the user's)
 * @param maxEvidenceChars the evidence budget of an answer (the synthesis input); default {@value
 *     SynthesisOptions#DEFAULT_MAX_EVIDENCE_CHARS}
 */
public record ResearchSettings(
    int limit,
    int maxCharsPerDoc,
    Duration deadline,
    int maxSteps,
    int maxRetrievalPasses,
    Duration plannerTimeout,
    Duration synthesisTimeout,
    PlannerPolicy plannerPolicy,
    String reviewModel,
    boolean includeBrainWritten,
    int maxEvidenceChars) {

  /** The review model's spec, or {@code null} when no answer is reviewed. */
  public String reviewSpec() {
    return reviewModel == null || dev.brain.models.chat.ChatModels.isExtractive(reviewModel)
        ? null
        : reviewModel;
  }

  /** Pack options with these defaults. */
  public ResearchOptions options() {
    return ResearchOptions.defaults()
        .withLimit(limit)
        .withMaxCharsPerDoc(maxCharsPerDoc)
        .withPlannerTimeout(plannerTimeout)
        .withIncludeBrainWritten(includeBrainWritten);
  }

  /** Synthesis options with this evidence budget and the synthesis timeout. */
  public SynthesisOptions synthesis() {
    return SynthesisOptions.defaults()
        .withMaxEvidenceChars(maxEvidenceChars)
        .withTimeout(synthesisTimeout);
  }

  /** Run budgets with these values (other stage budgets at their defaults). */
  public RunBudgets budgets() {
    return RunBudgets.defaults()
        .withDeadline(deadline)
        .withMaxSteps(maxSteps)
        .withMaxRetrievalPasses(maxRetrievalPasses)
        .withStageBudget(dev.brain.research.run.RunStage.PLANNING, plannerTimeout)
        .withStageBudget(dev.brain.research.run.RunStage.SYNTHESIS, synthesisTimeout)
        .withPlannerPolicy(plannerPolicy);
  }

  /** The planner policies by name, in the order an error lists them. */
  private static java.util.Map<String, PlannerPolicy> policies() {
    var out = new java.util.LinkedHashMap<String, PlannerPolicy>();
    for (PlannerPolicy p : PlannerPolicy.values()) {
      out.put(p.wireName(), p);
    }
    return out;
  }

  /** The {@code research.*} values of {@code r}: flag, environment, file or default. */
  static ResearchSettings read(ConfigReader r) {
    var o = ResearchOptions.defaults();
    var b = RunBudgets.defaults();
    return new ResearchSettings(
        r.integer("research.limit", null, o.limit(), 1, ResearchOptions.MAX_LIMIT),
        r.integer("research.max-chars-per-doc", null, o.maxCharsPerDoc(), 40, 100_000),
        r.duration(
            "research.deadline", null, b.deadline(), Duration.ofSeconds(1), ConfigValues.MAX_RUN),
        r.integer("research.max-steps", null, b.maxSteps(), 1, 100),
        r.integer("research.max-retrieval-passes", null, b.maxRetrievalPasses(), 1, 2),
        r.duration(
            "research.planner-timeout",
            null,
            b.planning(),
            Duration.ofMillis(1),
            ConfigValues.MAX_RUN),
        r.duration(
            "research.synthesis-timeout",
            null,
            b.synthesis(),
            Duration.ofMillis(1),
            ConfigValues.MAX_RUN),
        r.choice("research.planner-policy", null, b.plannerPolicy(), policies()),
        r.checked(
            "research.review-model",
            null,
            null,
            ConfigValues::chatModel,
            "ollama/<model>, openai/<model>"),
        r.bool("research.include-brain-written", null, o.includeBrainWritten()),
        r.integer(
            "research.max-evidence-chars",
            null,
            SynthesisOptions.DEFAULT_MAX_EVIDENCE_CHARS,
            500,
            1_000_000));
  }
}
