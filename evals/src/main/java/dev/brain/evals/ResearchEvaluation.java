package dev.brain.evals;

import dev.brain.models.chat.ChatModel;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.ChatContinuity;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.QueryVariant;
import dev.brain.research.run.PlannerPolicy;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.synthesis.Citation;
import dev.brain.retrieval.EvidenceRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Runs research eval cases ({@link ResearchEvalCase}) and checks every assertion of each: planner
 * off always, planner on when a planner model is given. The result lists every failed assertion
 * with the case, the planner mode, the field, what was expected and what the run produced.
 */
public final class ResearchEvaluation {

  /** Which planner modes to run. */
  public enum PlannerMode {
    /** Deterministic plan only. */
    OFF,
    /** With the planner model only, asked on every case. */
    ON,
    /** Both (planner-on only when a planner model is configured). */
    BOTH;

    /** The mode named {@code on}, {@code off} or {@code both}. */
    public static PlannerMode parse(String name) {
      for (var m : values()) {
        if (m.name().equalsIgnoreCase(name.strip())) {
          return m;
        }
      }
      throw new EvalException("unknown planner mode '" + name + "'; use on, off or both");
    }
  }

  /** Runs one request: the facade's or a test's runner. */
  @FunctionalInterface
  public interface Runner {
    /** The run of a request. */
    RunResult run(RunRequest request) throws IOException;
  }

  private final Runner runner;
  private final Function<String, RunRequest> requests;
  private final ChatModel planner;

  /**
   * An evaluation.
   *
   * @param runner runs a request
   * @param requests the base request of a question (options, budgets, answer model); the planner
   *     and continuity are set per case and mode
   * @param planner the planner model of planner-on runs, or {@code null} when none is configured
   */
  public ResearchEvaluation(
      Runner runner, Function<String, RunRequest> requests, ChatModel planner) {
    this.runner = runner;
    this.requests = requests;
    this.planner = planner;
  }

  /**
   * Runs the cases.
   *
   * @throws EvalException if planner-on runs were asked for without a planner model
   * @throws IOException if the index cannot be read
   */
  public ResearchEvalReport run(List<ResearchEvalCase> cases, PlannerMode mode) throws IOException {
    if (mode == PlannerMode.ON && planner == null) {
      throw new EvalException(
          "--planner on needs a planner model: set chat.planner-model (or chat.model) in brain.yaml");
    }
    var results = new ArrayList<ResearchEvalReport.CaseResult>();
    var notes = new ArrayList<String>();
    if (mode == PlannerMode.BOTH && planner == null) {
      notes.add("planner-on runs skipped: no planner model is configured");
    }
    for (ResearchEvalCase c : cases) {
      if (mode != PlannerMode.ON) {
        results.add(runCase(c, false));
      }
      if (mode != PlannerMode.OFF && planner != null) {
        results.add(runCase(c, true));
      }
    }
    return new ResearchEvalReport(results, notes);
  }

  private ResearchEvalReport.CaseResult runCase(ResearchEvalCase c, boolean plannerOn)
      throws IOException {
    RunRequest base = requests.apply(c.question());
    var options = base.options();
    if (c.includeRelated() != null) {
      options = options.withIncludeRelated(c.includeRelated());
    }
    RunRequest request =
        base.withOptions(options)
            .withPlanner(plannerOn ? planner : null)
            // Planner-on checks the model's plan: the model is asked on every case, also where
            // the deterministic plan alone would have been kept (research.planner-policy auto).
            .withBudgets(
                plannerOn ? base.budgets().withPlannerPolicy(PlannerPolicy.ALWAYS) : base.budgets())
            .withContinuity(new ChatContinuity(c.priorQuestions(), c.pinnedKeys(), List.of()))
            .withSurface("eval")
            .withTrace(false);
    long start = System.nanoTime();
    RunResult run = runner.run(request);
    long ms = (System.nanoTime() - start) / 1_000_000;
    String modeName = plannerOn ? "planner-on" : "planner-off";
    List<ResearchEvalReport.Failure> failures = check(c, run, plannerOn, ms);
    List<String> keys = evidenceKeys(run);
    return new ResearchEvalReport.CaseResult(
        c.id(),
        modeName,
        c.isReviewed(),
        failures,
        ms,
        run.stopReason() == null ? null : run.stopReason().wireName(),
        run.status().wireName(),
        keys.subList(0, Math.min(5, keys.size())),
        plannerOf(run),
        topSignals(run));
  }

  /** Most rows whose signals a case result shows. */
  static final int SIGNAL_ROWS = 3;

  private static ResearchEvalReport.PlannerMeta plannerOf(RunResult run) {
    var plan = run.pack() == null ? null : run.pack().queryPlan();
    return plan == null
        ? null
        : new ResearchEvalReport.PlannerMeta(
            plan.planner(), plan.plannerModel(), plan.plannerError());
  }

  private static List<ResearchEvalReport.RowSignals> topSignals(RunResult run) {
    if (run.pack() == null) {
      return List.of();
    }
    return run.pack().evidence().stream()
        .limit(SIGNAL_ROWS)
        .map(
            r ->
                new ResearchEvalReport.RowSignals(
                    r.sourceKey(), r.signals(), r.matchedTerms(), r.missingTerms()))
        .toList();
  }

  /** Every failed assertion of a case on a run. */
  static List<ResearchEvalReport.Failure> check(
      ResearchEvalCase c, RunResult run, boolean plannerOn, long latencyMs) {
    var f = new Failures();
    List<String> keys = evidenceKeys(run);
    ResearchPack pack = run.pack();
    for (String k : c.expectedKeys()) {
      if (!keys.contains(k)) {
        f.add("expected_keys", k, "not in evidence " + keys);
      }
    }
    for (String k : c.forbiddenKeys()) {
      if (keys.contains(k)) {
        f.add("forbidden_keys", "not " + k, "at #" + (keys.indexOf(k) + 1));
      }
    }
    int n = c.effectiveTopN();
    List<String> top = keys.subList(0, Math.min(n, keys.size()));
    for (String k : c.expectedTopKeys()) {
      if (!top.contains(k)) {
        int at = keys.indexOf(k);
        f.add(
            "expected_top_keys",
            k + " in top " + n,
            at < 0 ? "not in evidence; top " + n + " " + top : "at #" + (at + 1) + "; top " + top);
      }
    }
    if (c.minEvidence() != null && keys.size() < c.minEvidence()) {
      f.add("min_evidence", ">= " + c.minEvidence(), keys.size() + " rows");
    }
    String answer = run.synthesis() == null ? "" : run.synthesis().answer();
    String lower = answer == null ? "" : answer.toLowerCase(Locale.ROOT);
    for (String t : c.requiredText()) {
      if (!lower.contains(t.toLowerCase(Locale.ROOT))) {
        f.add("required_text", t, "answer lacks it: " + excerpt(answer));
      }
    }
    for (String t : c.forbiddenText()) {
      if (lower.contains(t.toLowerCase(Locale.ROOT))) {
        f.add("forbidden_text", "not \"" + t + "\"", "answer contains it: " + excerpt(answer));
      }
    }
    List<String> tagKeys =
        pack == null
            ? List.of()
            : pack.exactTagEvidence().stream().map(EvidenceRow::sourceKey).toList();
    for (String k : c.exactTagKeys()) {
      if (!tagKeys.contains(k)) {
        f.add("exact_tag_keys", k, "exact-tag evidence " + tagKeys);
      }
    }
    var plan = pack == null ? null : pack.queryPlan();
    List<String> terms = plan == null ? List.of() : plan.queryTerms();
    for (String t : c.queryTerms()) {
      if (!terms.contains(t.toLowerCase(Locale.ROOT))) {
        f.add("query_terms", t, "query terms " + terms);
      }
    }
    List<String> variants =
        plan == null ? List.of() : plan.queryVariants().stream().map(QueryVariant::query).toList();
    for (String v : c.queryVariants()) {
      String lv = v.toLowerCase(Locale.ROOT);
      if (variants.stream().noneMatch(q -> q.toLowerCase(Locale.ROOT).contains(lv))) {
        f.add("query_variants", "a variant containing \"" + v + "\"", "variants " + variants);
      }
    }
    List<String> conceptKeys =
        plan == null ? List.of() : plan.concepts().stream().map(Concept::key).toList();
    for (String k : c.concepts()) {
      if (!conceptKeys.contains(k)) {
        f.add("concepts", k, "concepts " + conceptKeys);
      }
    }
    if (c.queryFamily() != null) {
      String family = plan == null ? null : plan.queryFamily().wireName();
      f.expect("query_family", c.queryFamily(), family);
    }
    if (c.planner() != null && plannerOn) {
      f.expect("planner", c.planner(), plan == null ? null : plan.planner());
    }
    if (c.answerStatus() != null) {
      String status = run.synthesis() == null ? null : run.synthesis().answerStatus().wireName();
      f.expect("answer_status", c.answerStatus(), status);
    }
    if (c.stopReason() != null) {
      f.expect(
          "stop_reason",
          c.stopReason(),
          run.stopReason() == null ? null : run.stopReason().wireName());
    }
    List<String> cited =
        run.synthesis() == null
            ? List.of()
            : run.synthesis().citations().stream().map(Citation::sourceKey).toList();
    for (String k : c.citationKeys()) {
      if (!cited.contains(k)) {
        f.add("citation_keys", k, "cited " + cited);
      }
    }
    if (c.judgeVerdict() != null) {
      f.expect(
          "judge_verdict",
          c.judgeVerdict(),
          run.judge() == null ? null : run.judge().verdict().wireName());
    }
    if (c.retryAction() != null) {
      f.expect(
          "retry_action",
          c.retryAction(),
          run.judge() == null ? null : run.judge().retryAction().wireName());
    }
    for (List<String> group : c.expectAnyOf()) {
      if (group.stream().noneMatch(keys::contains)) {
        f.add("expect_any_of", "one of " + group, "none in evidence " + keys);
      }
    }
    for (String v : c.forbidQueryVariants()) {
      String lv = v.toLowerCase(Locale.ROOT);
      variants.stream()
          .filter(q -> q.toLowerCase(Locale.ROOT).contains(lv))
          .findFirst()
          .ifPresent(
              q ->
                  f.add(
                      "forbid_query_variants",
                      "no variant containing \"" + v + "\"",
                      "variant \"" + q + "\""));
    }
    for (String k : c.forbidConcepts()) {
      if (conceptKeys.contains(k)) {
        f.add("forbid_concepts", "not " + k, "concepts " + conceptKeys);
      }
    }
    if (c.plannerModel() != null && plannerOn) {
      f.expect("planner_model", c.plannerModel(), plan == null ? null : plan.plannerModel());
    }
    if (c.expectPlannerErrorContains() != null && plannerOn) {
      String error = plan == null ? null : plan.plannerError();
      if (error == null
          || !error
              .toLowerCase(Locale.ROOT)
              .contains(c.expectPlannerErrorContains().toLowerCase(Locale.ROOT))) {
        f.add(
            "expect_planner_error_contains",
            "a planner error containing \"" + c.expectPlannerErrorContains() + "\"",
            error == null ? "no planner error" : "\"" + error + "\"");
      }
    }
    EvidenceRow first = pack == null || pack.evidence().isEmpty() ? null : pack.evidence().get(0);
    if (c.minRetrievalSignals() != null) {
      List<String> signals = first == null ? List.of() : first.signals();
      if (signals.size() < c.minRetrievalSignals()) {
        f.add(
            "min_retrieval_signals",
            ">= " + c.minRetrievalSignals() + " signals on the first row",
            first == null ? "no evidence" : signals.size() + " " + signals);
      }
    }
    for (String k : c.forbidCitationSourceKeys()) {
      if (cited.contains(k)) {
        f.add("forbid_citation_source_keys", "not " + k, "cited " + cited);
      }
    }
    List<String> matched = first == null ? List.of() : first.matchedTerms();
    for (String t : c.expectMatchedTerms()) {
      if (!matched.contains(t.toLowerCase(Locale.ROOT))) {
        f.add(
            "expect_matched_terms",
            t + " matched by the first row",
            first == null ? "no evidence" : "matched " + matched);
      }
    }
    List<String> missing = first == null ? List.of() : first.missingTerms();
    for (String t : c.forbidMissingTerms()) {
      if (first == null || missing.contains(t.toLowerCase(Locale.ROOT))) {
        f.add(
            "forbid_missing_terms",
            t + " not missing from the first row",
            first == null ? "no evidence" : "missing " + missing);
      }
    }
    if (c.maxLatencyMs() != null && latencyMs > c.maxLatencyMs()) {
      f.add("max_latency_ms", "<= " + c.maxLatencyMs() + " ms", latencyMs + " ms");
    }
    return f.list;
  }

  static List<String> evidenceKeys(RunResult run) {
    return run.pack() == null
        ? List.of()
        : run.pack().evidence().stream().map(EvidenceRow::sourceKey).toList();
  }

  private static String excerpt(String s) {
    if (s == null || s.isEmpty()) {
      return "(empty)";
    }
    String one = s.replaceAll("\\s+", " ").strip();
    return "\"" + (one.length() > 160 ? one.substring(0, 159) + "…" : one) + "\"";
  }

  private static final class Failures {
    final List<ResearchEvalReport.Failure> list = new ArrayList<>();

    void add(String field, String expected, String actual) {
      list.add(new ResearchEvalReport.Failure(field, expected, actual));
    }

    void expect(String field, String expected, String actual) {
      if (actual == null || !expected.equalsIgnoreCase(actual)) {
        add(field, expected, actual == null ? "(none)" : actual);
      }
    }
  }
}
