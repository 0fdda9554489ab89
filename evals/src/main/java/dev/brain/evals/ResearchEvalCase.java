package dev.brain.evals;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.nio.file.Path;
import java.util.List;

/**
 * One research eval case ({@value #SCHEMA_VERSION}), a line of a JSON Lines case file: a question
 * (with optional chat continuity) and what its run must show. Every assertion field is optional; an
 * absent field asserts nothing. Answer text is compared case-insensitively.
 *
 * @param schemaVersion always {@value #SCHEMA_VERSION}
 * @param id a unique name, shown in the report
 * @param question the question
 * @param reviewed whether a person reviewed the case ({@code false} for a draft from a trace)
 * @param notes why the case exists
 * @param priorQuestions earlier questions of a chat follow-up
 * @param pinnedKeys evidence keys pinned in the chat
 * @param includeRelated run with link neighbours of the top rows, or {@code null} for the default
 * @param expectedKeys keys that must be among the evidence
 * @param forbiddenKeys keys that must not be among the evidence
 * @param expectedTopKeys keys that must be among the first {@code topN} evidence rows
 * @param topN how many rows {@code expectedTopKeys} may look at (default 3)
 * @param minEvidence fewest evidence rows
 * @param requiredText phrases the answer must contain
 * @param forbiddenText phrases the answer must not contain
 * @param exactTagKeys keys that must be among the exact-tag evidence
 * @param queryTerms terms the plan's query terms must contain
 * @param queryVariants phrases some query variant must contain
 * @param concepts concept keys the plan must have
 * @param queryFamily the plan's query family
 * @param planner the plan's planner when the case runs planner-on ({@code model_assisted} or {@code
 *     deterministic}); planner-off runs are always deterministic and this field is not checked
 * @param answerStatus the answer status ({@code ok}, {@code no_evidence}, ...)
 * @param stopReason the run's stop reason
 * @param citationKeys keys the answer must cite
 * @param judgeVerdict the judge's first verdict
 * @param retryAction the judge's first retry action
 * @param maxLatencyMs longest allowed run, in milliseconds
 * @param expectAnyOf groups of alternative keys: each group needs at least one of its keys among
 *     the evidence (two notes that answer equally well)
 * @param forbidQueryVariants phrases no query variant may contain
 * @param forbidConcepts concept keys the plan must not have
 * @param plannerModel the plan's {@code planner_model} on planner-on runs (not checked planner-off)
 * @param expectPlannerErrorContains text the plan's {@code planner_error} must contain on
 *     planner-on runs (a planner model that fails; not checked planner-off)
 * @param minRetrievalSignals fewest retrieval signals the first evidence row carries
 * @param forbidCitationSourceKeys keys the answer must not cite
 * @param expectMatchedTerms terms the first evidence row's {@code matched_terms} must contain
 * @param forbidMissingTerms terms the first evidence row's {@code missing_terms} must not contain
 * @param disablePlanner {@code true}: the case runs planner-off only, also where planner-on runs
 *     are asked for, and its {@code planner} is checked on that run (a question the deterministic
 *     plan must answer alone); {@code planner_model} and {@code expect_planner_error_contains}
 *     cannot be set with it
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonPropertyOrder({
  "schema_version",
  "id",
  "reviewed",
  "question",
  "notes",
  "prior_questions",
  "pinned_keys",
  "include_related",
  "disable_planner"
})
public record ResearchEvalCase(
    @JsonProperty("schema_version") String schemaVersion,
    String id,
    String question,
    Boolean reviewed,
    String notes,
    @JsonProperty("prior_questions") List<String> priorQuestions,
    @JsonProperty("pinned_keys") List<String> pinnedKeys,
    @JsonProperty("include_related") Boolean includeRelated,
    @JsonProperty("expected_keys") List<String> expectedKeys,
    @JsonProperty("forbidden_keys") List<String> forbiddenKeys,
    @JsonProperty("expected_top_keys") List<String> expectedTopKeys,
    @JsonProperty("top_n") Integer topN,
    @JsonProperty("min_evidence") Integer minEvidence,
    @JsonProperty("required_text") List<String> requiredText,
    @JsonProperty("forbidden_text") List<String> forbiddenText,
    @JsonProperty("exact_tag_keys") List<String> exactTagKeys,
    @JsonProperty("query_terms") List<String> queryTerms,
    @JsonProperty("query_variants") List<String> queryVariants,
    List<String> concepts,
    @JsonProperty("query_family") String queryFamily,
    String planner,
    @JsonProperty("answer_status") String answerStatus,
    @JsonProperty("stop_reason") String stopReason,
    @JsonProperty("citation_keys") List<String> citationKeys,
    @JsonProperty("judge_verdict") String judgeVerdict,
    @JsonProperty("retry_action") String retryAction,
    @JsonProperty("max_latency_ms") Long maxLatencyMs,
    @JsonProperty("expect_any_of") List<List<String>> expectAnyOf,
    @JsonProperty("forbid_query_variants") List<String> forbidQueryVariants,
    @JsonProperty("forbid_concepts") List<String> forbidConcepts,
    @JsonProperty("planner_model") String plannerModel,
    @JsonProperty("expect_planner_error_contains") String expectPlannerErrorContains,
    @JsonProperty("min_retrieval_signals") Integer minRetrievalSignals,
    @JsonProperty("forbid_citation_source_keys") List<String> forbidCitationSourceKeys,
    @JsonProperty("expect_matched_terms") List<String> expectMatchedTerms,
    @JsonProperty("forbid_missing_terms") List<String> forbidMissingTerms,
    @JsonProperty("disable_planner") Boolean disablePlanner) {

  /** The schema version of a case. */
  public static final String SCHEMA_VERSION = "research_eval_case.v1";

  /** {@link #topN()} when a case does not set it. */
  public static final int DEFAULT_TOP_N = 3;

  public ResearchEvalCase {
    priorQuestions = copy(priorQuestions);
    pinnedKeys = copy(pinnedKeys);
    expectedKeys = copy(expectedKeys);
    forbiddenKeys = copy(forbiddenKeys);
    expectedTopKeys = copy(expectedTopKeys);
    requiredText = copy(requiredText);
    forbiddenText = copy(forbiddenText);
    exactTagKeys = copy(exactTagKeys);
    queryTerms = copy(queryTerms);
    queryVariants = copy(queryVariants);
    concepts = copy(concepts);
    citationKeys = copy(citationKeys);
    expectAnyOf =
        expectAnyOf == null ? List.of() : expectAnyOf.stream().map(ResearchEvalCase::copy).toList();
    forbidQueryVariants = copy(forbidQueryVariants);
    forbidConcepts = copy(forbidConcepts);
    forbidCitationSourceKeys = copy(forbidCitationSourceKeys);
    expectMatchedTerms = copy(expectMatchedTerms);
    forbidMissingTerms = copy(forbidMissingTerms);
  }

  /**
   * An unreviewed draft case with the assertions a proposal sets ({@link CaseProposal}: from a
   * run's trace or a saved Chat turn); every other assertion stays unset.
   */
  static final class Draft {
    private final String id;
    private final String question;
    private final String notes;
    private List<String> priorQuestions;
    private List<String> pinnedKeys;
    private Boolean includeRelated;
    private List<String> expectedKeys;
    private List<String> expectedTopKeys;
    private List<String> requiredText;
    private String queryFamily;
    private String planner;
    private String answerStatus;
    private String stopReason;
    private List<String> citationKeys;
    private String judgeVerdict;
    private String retryAction;
    private String plannerModel;

    Draft(String id, String question, String notes) {
      this.id = id;
      this.question = question;
      this.notes = notes;
    }

    Draft context(List<String> priorQuestions, List<String> pinnedKeys, Boolean includeRelated) {
      this.priorQuestions = priorQuestions;
      this.pinnedKeys = pinnedKeys;
      this.includeRelated = includeRelated;
      return this;
    }

    Draft evidence(List<String> expectedKeys, List<String> expectedTopKeys) {
      this.expectedKeys = expectedKeys;
      this.expectedTopKeys = expectedTopKeys;
      return this;
    }

    Draft plan(String queryFamily, String planner, String plannerModel) {
      this.queryFamily = queryFamily;
      this.planner = planner;
      this.plannerModel = plannerModel;
      return this;
    }

    Draft outcome(String answerStatus, String stopReason, List<String> citationKeys) {
      this.answerStatus = answerStatus;
      this.stopReason = stopReason;
      this.citationKeys = citationKeys;
      return this;
    }

    Draft judge(String judgeVerdict, String retryAction) {
      this.judgeVerdict = judgeVerdict;
      this.retryAction = retryAction;
      return this;
    }

    Draft requiredText(List<String> requiredText) {
      this.requiredText = requiredText;
      return this;
    }

    ResearchEvalCase build() {
      return new ResearchEvalCase(
          SCHEMA_VERSION,
          id,
          question,
          false,
          notes,
          priorQuestions,
          pinnedKeys,
          includeRelated,
          expectedKeys,
          null,
          expectedTopKeys,
          null,
          null,
          requiredText,
          null,
          null,
          null,
          null,
          null,
          queryFamily,
          planner,
          answerStatus,
          stopReason,
          citationKeys,
          judgeVerdict,
          retryAction,
          null,
          null,
          null,
          null,
          plannerModel,
          null,
          null,
          null,
          null,
          null,
          null);
    }
  }

  /** The number of top rows {@link #expectedTopKeys()} may look at. */
  public int effectiveTopN() {
    return topN == null ? DEFAULT_TOP_N : topN;
  }

  /** Whether the case runs planner-off only ({@code "disable_planner": true}). */
  public boolean plannerDisabled() {
    return Boolean.TRUE.equals(disablePlanner);
  }

  /** Whether a person reviewed the case (a case without the field counts as reviewed). */
  public boolean isReviewed() {
    return reviewed == null || reviewed;
  }

  /**
   * The cases of JSON Lines files, in order; blank lines and lines starting with {@code //} are
   * skipped.
   *
   * @throws EvalException naming the file and line of a malformed line, an unknown field, a missing
   *     or wrong schema version, a missing id or question, or a duplicate id
   */
  public static List<ResearchEvalCase> read(List<Path> files) {
    return CaseLines.read(files);
  }

  /** One case line; {@code where} names the file and line in errors (see {@link CaseLines}). */
  static ResearchEvalCase parse(String line, String where) {
    return CaseLines.parse(line, where);
  }

  /** The case as one JSON line. */
  public String toJsonLine() {
    return CaseLines.toJsonLine(this);
  }

  /** The JSON names of a case's fields, in the record's order. */
  static List<String> fieldNames() {
    return CaseLines.fieldNames();
  }

  private static List<String> copy(List<String> list) {
    return list == null ? List.of() : List.copyOf(list);
  }
}
