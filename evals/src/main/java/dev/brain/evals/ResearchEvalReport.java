package dev.brain.evals;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Locale;

/**
 * The result of {@code brain eval research}: one row per case and planner mode, with every failed
 * assertion.
 *
 * @param results one per case and mode, in case order
 * @param notes what the evaluation could not do (e.g. planner-on runs without a planner model)
 */
@JsonPropertyOrder({"schema_version", "cases", "runs", "failed_runs", "passed", "notes", "results"})
public record ResearchEvalReport(List<CaseResult> results, List<String> notes) {

  /** The schema version of the JSON report. */
  public static final String SCHEMA_VERSION = "research_eval_report.v1";

  public ResearchEvalReport {
    results = List.copyOf(results);
    notes = List.copyOf(notes);
  }

  /**
   * A failed assertion.
   *
   * @param field the case field
   * @param expected what the case asks for
   * @param actual what the run produced
   */
  public record Failure(String field, String expected, String actual) {}

  /**
   * Which planner made a run's plan.
   *
   * @param planner {@code deterministic} or {@code model_assisted}
   * @param plannerModel the planner model asked, or {@code null}
   * @param plannerError why the model plan was not used, or {@code null}
   */
  public record PlannerMeta(
      String planner,
      @JsonProperty("planner_model") String plannerModel,
      @JsonProperty("planner_error") String plannerError) {}

  /**
   * Why a top evidence row matched.
   *
   * @param key the row's source key
   * @param signals its retrieval signals
   * @param matchedTerms query terms it matched
   * @param missingTerms query terms it lacks
   */
  public record RowSignals(
      String key,
      List<String> signals,
      @JsonProperty("matched_terms") List<String> matchedTerms,
      @JsonProperty("missing_terms") List<String> missingTerms) {
    public RowSignals {
      signals = List.copyOf(signals);
      matchedTerms = List.copyOf(matchedTerms);
      missingTerms = List.copyOf(missingTerms);
    }
  }

  /**
   * One case run in one planner mode.
   *
   * @param id the case id
   * @param mode {@code planner-off} or {@code planner-on}
   * @param reviewed whether the case was reviewed
   * @param failures every failed assertion (empty: passed)
   * @param latencyMs how long the run took
   * @param stopReason the run's stop reason
   * @param status the run's status
   * @param topKeys the first evidence keys
   * @param planner the plan's planner, planner model and planner error, or {@code null} without a
   *     pack
   * @param topSignals the signals and matched/missing terms of the first evidence rows
   */
  @JsonPropertyOrder({"id", "mode", "passed", "reviewed", "failures"})
  public record CaseResult(
      String id,
      String mode,
      boolean reviewed,
      List<Failure> failures,
      @JsonProperty("latency_ms") long latencyMs,
      @JsonProperty("stop_reason") String stopReason,
      String status,
      @JsonProperty("top_keys") List<String> topKeys,
      PlannerMeta planner,
      @JsonProperty("top_signals") List<RowSignals> topSignals) {

    public CaseResult {
      failures = List.copyOf(failures);
      topKeys = List.copyOf(topKeys);
      topSignals = List.copyOf(topSignals);
    }

    /** Whether every assertion held. */
    @JsonProperty("passed")
    public boolean passed() {
      return failures.isEmpty();
    }
  }

  /** {@value #SCHEMA_VERSION}. */
  @JsonProperty("schema_version")
  public String schemaVersion() {
    return SCHEMA_VERSION;
  }

  /** Distinct cases run. */
  @JsonProperty("cases")
  public long cases() {
    return results.stream().map(CaseResult::id).distinct().count();
  }

  /** Case runs (a case runs once per planner mode). */
  @JsonProperty("runs")
  public int runs() {
    return results.size();
  }

  /** Runs with a failed assertion. */
  @JsonProperty("failed_runs")
  public long failedRuns() {
    return results.stream().filter(r -> !r.passed()).count();
  }

  /** Whether every run passed. */
  @JsonProperty("passed")
  public boolean passed() {
    return failedRuns() == 0;
  }

  /**
   * The report as text: a line per failed assertion with the run's planner and the signals of its
   * top rows, then a summary line.
   */
  public String text() {
    var out = new StringBuilder();
    for (CaseResult r : results) {
      if (r.passed()) {
        continue;
      }
      out.append("FAIL ")
          .append(r.id())
          .append(" [")
          .append(r.mode())
          .append(r.reviewed() ? "" : ", unreviewed")
          .append("]\n");
      for (Failure f : r.failures()) {
        out.append("  ")
            .append(f.field())
            .append(": expected ")
            .append(f.expected())
            .append("; actual ")
            .append(f.actual())
            .append('\n');
      }
      if (r.planner() != null) {
        out.append("  planner: ").append(r.planner().planner());
        if (r.planner().plannerModel() != null) {
          out.append(" (").append(r.planner().plannerModel()).append(')');
        }
        if (r.planner().plannerError() != null) {
          out.append("; error: ").append(r.planner().plannerError());
        }
        out.append('\n');
      }
      for (RowSignals s : r.topSignals()) {
        out.append("  #")
            .append(r.topSignals().indexOf(s) + 1)
            .append(' ')
            .append(s.key())
            .append(": ")
            .append(String.join(", ", s.signals()));
        if (!s.missingTerms().isEmpty()) {
          out.append("; missing ").append(String.join(", ", s.missingTerms()));
        }
        out.append('\n');
      }
    }
    for (String n : notes) {
      out.append("note: ").append(n).append('\n');
    }
    out.append(
        String.format(
            Locale.ROOT,
            "%d cases, %d runs, %d passed, %d failed%n",
            cases(),
            runs(),
            runs() - failedRuns(),
            failedRuns()));
    return out.toString();
  }
}
