package dev.brain.evals;

import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.QueryPlan;
import dev.brain.research.plan.QueryVariant;
import dev.brain.research.run.RunResult;
import dev.brain.research.synthesis.Citation;
import dev.brain.research.synthesis.SynthesisResult;
import dev.brain.retrieval.EvidenceRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The assertions of a {@link ResearchEvalCase} checked on a run, one method per family: the
 * evidence, the answer, the plan, the planner, how the run ended and the first row.
 */
final class CaseAssertions {

  private CaseAssertions() {}

  /**
   * Every failed assertion of a case on a run, family by family, listed in the order of the case's
   * fields with the latency budget last.
   */
  static List<ResearchEvalReport.Failure> check(
      ResearchEvalCase c, RunResult run, boolean plannerOn, long latencyMs) {
    var f = new Failures();
    List<String> keys = ResearchEvaluation.evidenceKeys(run);
    ResearchPack pack = run.pack();
    checkEvidence(c, keys, f);
    checkTopKeys(c, keys, f);
    checkExactTagEvidence(c, pack, f);
    checkAnswer(c, run.synthesis(), f);
    QueryPlan plan = pack == null ? null : pack.queryPlan();
    checkPlanContent(c, plan, f);
    checkPlanner(c, plan, plannerOn, f);
    checkOutcome(c, run, f);
    checkFirstRow(c, pack == null || pack.evidence().isEmpty() ? null : pack.evidence().get(0), f);
    if (c.maxLatencyMs() != null && latencyMs > c.maxLatencyMs()) {
      f.add("max_latency_ms", "<= " + c.maxLatencyMs() + " ms", latencyMs + " ms");
    }
    return f.inCaseFieldOrder();
  }

  /** {@code expected_keys}, {@code forbidden_keys}, {@code min_evidence}, {@code expect_any_of}. */
  private static void checkEvidence(ResearchEvalCase c, List<String> keys, Failures f) {
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
    if (c.minEvidence() != null && keys.size() < c.minEvidence()) {
      f.add("min_evidence", ">= " + c.minEvidence(), keys.size() + " rows");
    }
    for (List<String> group : c.expectAnyOf()) {
      if (group.stream().noneMatch(keys::contains)) {
        f.add("expect_any_of", "one of " + group, "none in evidence " + keys);
      }
    }
  }

  /** {@code expected_top_keys} within the first {@code top_n} rows. */
  private static void checkTopKeys(ResearchEvalCase c, List<String> keys, Failures f) {
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
  }

  /** {@code exact_tag_keys}. */
  private static void checkExactTagEvidence(ResearchEvalCase c, ResearchPack pack, Failures f) {
    List<String> tagKeys =
        pack == null
            ? List.of()
            : pack.exactTagEvidence().stream().map(EvidenceRow::sourceKey).toList();
    for (String k : c.exactTagKeys()) {
      if (!tagKeys.contains(k)) {
        f.add("exact_tag_keys", k, "exact-tag evidence " + tagKeys);
      }
    }
  }

  /**
   * The answer's text and citations: {@code required_text}, {@code forbidden_text}, {@code
   * citation_keys}, {@code forbid_citation_source_keys}.
   */
  private static void checkAnswer(ResearchEvalCase c, SynthesisResult synthesis, Failures f) {
    String answer = synthesis == null ? "" : synthesis.answer();
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
    List<String> cited =
        synthesis == null
            ? List.of()
            : synthesis.citations().stream().map(Citation::sourceKey).toList();
    for (String k : c.citationKeys()) {
      if (!cited.contains(k)) {
        f.add("citation_keys", k, "cited " + cited);
      }
    }
    for (String k : c.forbidCitationSourceKeys()) {
      if (cited.contains(k)) {
        f.add("forbid_citation_source_keys", "not " + k, "cited " + cited);
      }
    }
  }

  /**
   * What the plan holds: {@code query_terms}, {@code query_variants}, {@code
   * forbid_query_variants}, {@code concepts}, {@code forbid_concepts}, {@code query_family}.
   */
  private static void checkPlanContent(ResearchEvalCase c, QueryPlan plan, Failures f) {
    List<String> terms = plan == null ? List.of() : plan.queryTerms();
    for (String t : c.queryTerms()) {
      if (!terms.contains(t.toLowerCase(Locale.ROOT))) {
        f.add("query_terms", t, "query terms " + terms);
      }
    }
    List<String> variants =
        plan == null ? List.of() : plan.queryVariants().stream().map(QueryVariant::query).toList();
    for (String v : c.queryVariants()) {
      if (variantContaining(variants, v) == null) {
        f.add("query_variants", "a variant containing \"" + v + "\"", "variants " + variants);
      }
    }
    for (String v : c.forbidQueryVariants()) {
      String q = variantContaining(variants, v);
      if (q != null) {
        f.add(
            "forbid_query_variants",
            "no variant containing \"" + v + "\"",
            "variant \"" + q + "\"");
      }
    }
    List<String> conceptKeys =
        plan == null ? List.of() : plan.concepts().stream().map(Concept::key).toList();
    for (String k : c.concepts()) {
      if (!conceptKeys.contains(k)) {
        f.add("concepts", k, "concepts " + conceptKeys);
      }
    }
    for (String k : c.forbidConcepts()) {
      if (conceptKeys.contains(k)) {
        f.add("forbid_concepts", "not " + k, "concepts " + conceptKeys);
      }
    }
    if (c.queryFamily() != null) {
      f.expect(
          "query_family", c.queryFamily(), plan == null ? null : plan.queryFamily().wireName());
    }
  }

  /** The first variant containing {@code phrase}, ignoring case, or {@code null}. */
  private static String variantContaining(List<String> variants, String phrase) {
    String lower = phrase.toLowerCase(Locale.ROOT);
    return variants.stream()
        .filter(q -> q.toLowerCase(Locale.ROOT).contains(lower))
        .findFirst()
        .orElse(null);
  }

  /**
   * Who planned, on planner-on runs only: {@code planner}, {@code planner_model}, {@code
   * expect_planner_error_contains}; and {@code planner} on the planner-off run of a case that
   * disables the planner (that it was honoured).
   */
  private static void checkPlanner(
      ResearchEvalCase c, QueryPlan plan, boolean plannerOn, Failures f) {
    if (!plannerOn) {
      if (c.plannerDisabled() && c.planner() != null) {
        f.expect("planner", c.planner(), plan == null ? null : plan.planner());
      }
      return;
    }
    if (c.planner() != null) {
      f.expect("planner", c.planner(), plan == null ? null : plan.planner());
    }
    if (c.plannerModel() != null) {
      f.expect("planner_model", c.plannerModel(), plan == null ? null : plan.plannerModel());
    }
    String wanted = c.expectPlannerErrorContains();
    if (wanted != null) {
      String error = plan == null ? null : plan.plannerError();
      if (error == null
          || !error.toLowerCase(Locale.ROOT).contains(wanted.toLowerCase(Locale.ROOT))) {
        f.add(
            "expect_planner_error_contains",
            "a planner error containing \"" + wanted + "\"",
            error == null ? "no planner error" : "\"" + error + "\"");
      }
    }
  }

  /**
   * How the run ended: {@code answer_status}, {@code stop_reason}, {@code judge_verdict}, {@code
   * retry_action}.
   */
  private static void checkOutcome(ResearchEvalCase c, RunResult run, Failures f) {
    if (c.answerStatus() != null) {
      String status = run.synthesis() == null ? null : run.synthesis().answerStatus().wireName();
      f.expect("answer_status", c.answerStatus(), status);
    }
    if (c.stopReason() != null) {
      String reason = run.stopReason() == null ? null : run.stopReason().wireName();
      f.expect("stop_reason", c.stopReason(), reason);
    }
    if (c.judgeVerdict() != null) {
      String verdict = run.judge() == null ? null : run.judge().verdict().wireName();
      f.expect("judge_verdict", c.judgeVerdict(), verdict);
    }
    if (c.retryAction() != null) {
      String action = run.judge() == null ? null : run.judge().retryAction().wireName();
      f.expect("retry_action", c.retryAction(), action);
    }
  }

  /**
   * Why the first row ranks first: {@code min_retrieval_signals}, {@code expect_matched_terms},
   * {@code forbid_missing_terms}.
   */
  private static void checkFirstRow(ResearchEvalCase c, EvidenceRow first, Failures f) {
    if (c.minRetrievalSignals() != null) {
      List<String> signals = first == null ? List.of() : first.signals();
      if (signals.size() < c.minRetrievalSignals()) {
        f.add(
            "min_retrieval_signals",
            ">= " + c.minRetrievalSignals() + " signals on the first row",
            first == null ? "no evidence" : signals.size() + " " + signals);
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
  }

  private static String excerpt(String s) {
    if (s == null || s.isEmpty()) {
      return "(empty)";
    }
    String one = s.replaceAll("\\s+", " ").strip();
    return "\"" + (one.length() > 160 ? one.substring(0, 159) + "…" : one) + "\"";
  }

  private static final class Failures {
    /** The report's order: the case's fields in file order, the latency budget last. */
    private static final List<String> ORDER =
        ResearchEvalCase.fieldNames().stream()
            .sorted(Comparator.comparing((String field) -> field.equals("max_latency_ms")))
            .toList();

    private final List<ResearchEvalReport.Failure> list = new ArrayList<>();

    List<ResearchEvalReport.Failure> inCaseFieldOrder() {
      list.sort(Comparator.comparingInt(failure -> ORDER.indexOf(failure.field())));
      return list;
    }

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
