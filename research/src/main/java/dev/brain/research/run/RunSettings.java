package dev.brain.research.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.synthesis.SynthesisOptions;
import dev.brain.research.synthesis.SynthesisResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The options a run used, as a trace records them: enough to run the same question again ({@code
 * brain trace diff}).
 *
 * @param sourceTypes the source types searched (empty: all)
 * @param limit most evidence rows
 * @param maxCharsPerDoc longest excerpt per row
 * @param includeTopicBrief topic brief forced on, off, or automatic ({@code null})
 * @param semantic whether the vector lane was on
 * @param plannerTimeoutMs the model planner's timeout
 * @param maxEvidenceChars the synthesis evidence budget
 * @param synthesisTimeoutMs the synthesis model's timeout
 * @param plannerModel the planner model's id, or {@code null} for the deterministic planner
 * @param synthesisModel the synthesis model's id, or {@code extractive}
 * @param budgets the run's bounds
 */
@JsonPropertyOrder({
  "source_types",
  "limit",
  "max_chars_per_doc",
  "include_topic_brief",
  "semantic",
  "planner_timeout_ms",
  "max_evidence_chars",
  "synthesis_timeout_ms",
  "planner_model",
  "synthesis_model",
  "budgets"
})
public record RunSettings(
    @JsonProperty("source_types") List<String> sourceTypes,
    int limit,
    @JsonProperty("max_chars_per_doc") int maxCharsPerDoc,
    @JsonProperty("include_topic_brief") @JsonInclude(JsonInclude.Include.ALWAYS)
        Boolean includeTopicBrief,
    boolean semantic,
    @JsonProperty("planner_timeout_ms") long plannerTimeoutMs,
    @JsonProperty("max_evidence_chars") int maxEvidenceChars,
    @JsonProperty("synthesis_timeout_ms") long synthesisTimeoutMs,
    @JsonProperty("planner_model") String plannerModel,
    @JsonProperty("synthesis_model") String synthesisModel,
    RunBudgets budgets) {

  public RunSettings {
    sourceTypes = List.copyOf(sourceTypes);
  }

  /** The settings of a request. */
  public static RunSettings of(RunRequest r) {
    ResearchOptions o = r.options();
    return new RunSettings(
        o.sourceTypes(),
        o.limit(),
        o.maxCharsPerDoc(),
        o.includeTopicBrief(),
        o.semantic(),
        o.plannerTimeout().toMillis(),
        r.synthesis().maxEvidenceChars(),
        r.synthesis().timeout().toMillis(),
        r.planner() == null ? null : r.planner().id(),
        r.model() == null ? SynthesisResult.EXTRACTIVE : r.model().id(),
        r.budgets());
  }

  /** The pack options. */
  public ResearchOptions researchOptions() {
    return ResearchOptions.defaults()
        .withSourceTypes(sourceTypes)
        .withLimit(limit)
        .withMaxCharsPerDoc(maxCharsPerDoc)
        .withIncludeTopicBrief(includeTopicBrief)
        .withSemantic(semantic)
        .withPlannerTimeout(Duration.ofMillis(plannerTimeoutMs));
  }

  /** The synthesis options. */
  public SynthesisOptions synthesisOptions() {
    return new SynthesisOptions(maxEvidenceChars, Duration.ofMillis(synthesisTimeoutMs));
  }

  /**
   * The settings of a trace's {@code settings} object; missing fields take their defaults, so older
   * traces stay readable.
   */
  public static RunSettings fromJson(JsonNode n) {
    ResearchOptions d = ResearchOptions.defaults();
    SynthesisOptions s = SynthesisOptions.defaults();
    var types = new ArrayList<String>();
    n.path("source_types").forEach(t -> types.add(t.asText()));
    JsonNode brief = n.path("include_topic_brief");
    return new RunSettings(
        types,
        n.path("limit").asInt(d.limit()),
        n.path("max_chars_per_doc").asInt(d.maxCharsPerDoc()),
        brief.isBoolean() ? brief.asBoolean() : null,
        n.path("semantic").asBoolean(d.semantic()),
        n.path("planner_timeout_ms").asLong(d.plannerTimeout().toMillis()),
        n.path("max_evidence_chars").asInt(s.maxEvidenceChars()),
        n.path("synthesis_timeout_ms").asLong(s.timeout().toMillis()),
        text(n.path("planner_model")),
        text(n.path("synthesis_model")),
        budgets(n.path("budgets")));
  }

  private static String text(JsonNode n) {
    return n.isTextual() ? n.asText() : null;
  }

  private static RunBudgets budgets(JsonNode n) {
    RunBudgets d = RunBudgets.defaults();
    JsonNode stages = n.path("stage_budgets_ms");
    return new RunBudgets(
        n.path("max_steps").asInt(d.maxSteps()),
        n.path("max_retrieval_passes").asInt(d.maxRetrievalPasses()),
        ms(n.path("deadline_ms"), d.deadline()),
        ms(stages.path("planning"), d.planning()),
        ms(stages.path("retrieval"), d.retrieval()),
        ms(stages.path("inspection"), d.inspection()),
        ms(stages.path("synthesis"), d.synthesis()),
        ms(stages.path("verification"), d.verification()),
        ms(stages.path("trace"), d.trace()),
        n.path("inspect_rows").asInt(d.inspectRows()),
        n.path("inspect_chars").asInt(d.inspectChars()),
        n.path("related_limit").asInt(d.relatedLimit()),
        n.path("retry_accept_limit").asInt(d.retryAcceptLimit()),
        // A run saved before the policy existed asked its planner every time.
        n.path("planner_policy").isTextual()
            ? PlannerPolicy.parse(n.path("planner_policy").asText())
            : PlannerPolicy.ALWAYS);
  }

  private static Duration ms(JsonNode n, Duration fallback) {
    return n.canConvertToLong() && n.asLong() > 0 ? Duration.ofMillis(n.asLong()) : fallback;
  }
}
