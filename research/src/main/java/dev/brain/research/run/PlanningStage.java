package dev.brain.research.run;

import static dev.brain.research.run.StageData.data;
import static dev.brain.research.run.StageData.merge;
import static dev.brain.research.run.StageData.min;
import static dev.brain.research.run.StageData.planData;
import static dev.brain.research.run.StageData.planSummary;
import static dev.brain.research.run.StageData.plannerInput;

import dev.brain.models.chat.ChatModel;
import dev.brain.research.pack.PackBuilder;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.plan.ModelPlanner;
import dev.brain.research.plan.PlannerInfo;
import dev.brain.research.plan.PlannerPrompt;
import dev.brain.research.plan.Strategy;
import dev.brain.research.run.JudgeVerdict.Verdict;
import dev.brain.research.run.ProgressEvent.Status;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;

/**
 * The planning stage of a run, for {@link EvidenceStages}: the deterministic plan, or a planner
 * model's within the planning budget, as the planner policy decides; fills the run's {@link
 * RunState} with the strategy, the planner's trace files and (policy {@code auto}) the probe
 * search.
 */
final class PlanningStage {
  private final Retriever retriever;
  private final RunRequest request;
  private final ResearchOptions options;
  private final RunBudgets budgets;
  private final Stages stages;
  private final RunState state;

  PlanningStage(
      Retriever retriever,
      RunRequest request,
      ResearchOptions options,
      Stages stages,
      RunState state) {
    this.retriever = retriever;
    this.request = request;
    this.options = options;
    this.budgets = request.budgets();
    this.stages = stages;
    this.state = state;
  }

  /**
   * Plans deterministically without a planner model; else asks it (under policy {@code auto} only
   * when the deterministic plan's search finds too little).
   */
  void run() throws IOException {
    ChatModel planner = request.planner();
    if (planner == null) {
      stages.begin(RunStage.PLANNING, "Planning deterministically", Map.of());
      stages.end(
          RunStage.PLANNING,
          Status.COMPLETED,
          planSummary(state.strategy),
          planData(state.strategy));
      return;
    }
    Map<String, Object> policy;
    if (budgets.plannerPolicy() == PlannerPolicy.AUTO) {
      policy = probeBeforeAsking(planner);
      if (policy == null) {
        return;
      }
    } else {
      policy = policyData("asked", "planner policy always");
      stages.begin(
          RunStage.PLANNING, "Asking " + planner.id() + " for a plan", data("model", planner.id()));
    }
    askPlanner(planner, policy);
  }

  /**
   * Planner policy {@code auto}: searches with the deterministic plan first. When that finds enough
   * evidence the planning stage ends without asking the model (and {@code null} is returned);
   * otherwise the policy's trace data, for asking it.
   */
  private Map<String, Object> probeBeforeAsking(ChatModel planner) throws IOException {
    stages.begin(
        RunStage.PLANNING,
        "Searching with the deterministic plan before asking " + planner.id(),
        data("model", planner.id(), "planner_policy", PlannerPolicy.AUTO.wireName()));
    PackBuilder.Built probe =
        new PackBuilder(retriever).build(state.strategy, options, PlannerInfo.DETERMINISTIC);
    JudgeVerdict verdict = Judge.judge(new Judge.Input(probe.pack(), java.util.Set.of(), 0, false));
    boolean followUp = state.strategy.followUp() != null;
    if (verdict.verdict() == Verdict.ENOUGH_EVIDENCE) {
      state.probe = probe;
      String reason =
          (followUp ? "a follow-up: " : "")
              + "the deterministic plan already found enough evidence ("
              + verdict.reason()
              + ")";
      stages.end(
          RunStage.PLANNING,
          Status.COMPLETED,
          planSummary(state.strategy)
              + "; "
              + planner.id()
              + " not asked, skipped by policy: "
              + reason,
          merge(planData(state.strategy), policyData("skipped", reason)));
      return null;
    }
    String reason =
        (followUp ? "a follow-up with " : "")
            + (verdict.verdict() == Verdict.NO_EVIDENCE ? "no evidence" : "weak evidence")
            + " from the deterministic plan ("
            + verdict.reason()
            + ")";
    Map<String, Object> policy = policyData("asked", reason);
    stages.emit(
        RunStage.PLANNING,
        Status.STARTED,
        "Asking " + planner.id() + " for a plan: " + reason,
        merge(data("model", planner.id()), policy));
    return policy;
  }

  /**
   * Asks the planner model for a plan within the planning budget, keeps its input and output for
   * the trace, and ends the planning stage: with the model's plan, or failed with the deterministic
   * plan kept.
   */
  private void askPlanner(ChatModel planner, Map<String, Object> policy) throws IOException {
    Duration timeout = min(budgets.planning(), options.plannerTimeout());
    Strategy base = state.strategy;
    ModelPlanner.Outcome outcome =
        stages.clock().modelCall(() -> ModelPlanner.plan(planner, base, timeout));
    state.modelCalls++;
    state.plannerChars = PlannerPrompt.SYSTEM.length() + outcome.input().length();
    state.sidecars.put(RunTraces.PLANNER_INPUT, plannerInput(outcome.input()));
    if (outcome.output() != null) {
      boolean json = ModelPlanner.parse(outcome.output()) != null;
      state.sidecars.put(
          json ? RunTraces.PLANNER_OUTPUT_JSON : RunTraces.PLANNER_OUTPUT_TXT, outcome.output());
    }
    state.strategy = outcome.strategy();
    state.plannerInfo = outcome.info();
    stages.checkStop(RunStage.PLANNING);
    if (state.plannerInfo.error() != null) {
      stages.end(
          RunStage.PLANNING,
          Status.FAILED,
          "Model plan not used (" + state.plannerInfo.error() + "); using the deterministic plan",
          merge(
              merge(planData(state.strategy), data("planner_error", state.plannerInfo.error())),
              policy));
    } else {
      stages.end(
          RunStage.PLANNING,
          Status.COMPLETED,
          planSummary(state.strategy),
          merge(planData(state.strategy), policy));
    }
  }

  /** What the planner policy decided and why: trace data of the planning stage. */
  private Map<String, Object> policyData(String decision, String reason) {
    return data(
        "planner_policy",
        budgets.plannerPolicy().wireName(),
        "planner_decision",
        decision,
        "planner_reason",
        reason);
  }
}
