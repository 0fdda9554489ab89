package dev.brain.evals;

import dev.brain.models.chat.ChatModel;
import dev.brain.research.plan.ChatContinuity;
import dev.brain.research.run.PlannerPolicy;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.retrieval.EvidenceRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Runs research eval cases ({@link ResearchEvalCase}) and checks every assertion of each: planner
 * off always, planner on when a planner model is given (except for a case that disables the
 * planner, which runs planner-off only). The result lists every failed assertion with the case, the
 * planner mode, the field, what was expected and what the run produced.
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
    var plannerOff = new ArrayList<String>();
    for (ResearchEvalCase c : cases) {
      if (c.plannerDisabled()) {
        // The case asks for the deterministic plan alone, whatever the mode.
        results.add(runCase(c, false));
        if (mode != PlannerMode.OFF && planner != null) {
          plannerOff.add(c.id());
        }
        continue;
      }
      if (mode != PlannerMode.ON) {
        results.add(runCase(c, false));
      }
      if (mode != PlannerMode.OFF && planner != null) {
        results.add(runCase(c, true));
      }
    }
    if (!plannerOff.isEmpty()) {
      notes.add("run planner-off only (disable_planner): " + String.join(", ", plannerOff));
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
    List<ResearchEvalReport.Failure> failures = CaseAssertions.check(c, run, plannerOn, ms);
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

  static List<String> evidenceKeys(RunResult run) {
    return run.pack() == null
        ? List.of()
        : run.pack().evidence().stream().map(EvidenceRow::sourceKey).toList();
  }
}
