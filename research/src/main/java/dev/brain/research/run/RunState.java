package dev.brain.research.run;

import dev.brain.research.pack.MergeReport;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.pack.RowInspection;
import dev.brain.research.plan.PlannerInfo;
import dev.brain.research.plan.Strategy;
import dev.brain.research.run.JudgeVerdict.Verdict;
import dev.brain.research.synthesis.AnswerStatus;
import dev.brain.research.synthesis.PreparedSynthesis;
import dev.brain.research.synthesis.ResearchResult.Outcome;
import dev.brain.research.synthesis.SynthesisResult;
import dev.brain.research.synthesis.Verification;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one run has found so far, filled in stage by stage ({@code null} until a stage reached it),
 * and what it adds up to: the stop reason, the status, the metrics.
 */
final class RunState {
  Strategy strategy;
  PlannerInfo plannerInfo = PlannerInfo.DETERMINISTIC;
  ResearchPack pack;
  List<RowInspection> inspections = List.of();
  JudgeVerdict judge;
  JudgeVerdict finalJudge;
  MergeReport merge;
  MergeReport pinned;
  PreparedSynthesis prepared;
  SynthesisResult synthesis;
  Verification verification;
  StopReason stopReason;
  RunFailure failure;

  /**
   * The pack the deterministic plan found while the planner policy decided, kept when the model was
   * not asked (retrieval then reuses it), else {@code null}.
   */
  dev.brain.research.pack.PackBuilder.Built probe;

  final Map<String, String> sidecars = new LinkedHashMap<>();
  final Set<String> queriesRun = new HashSet<>();
  int variantCount;
  int rowsRetrieved;
  int candidates;
  int modelCalls;
  long plannerChars;
  long synthesisChars;
  final AtomicInteger tokens = new AtomicInteger();

  RunState(Strategy strategy) {
    this.strategy = strategy;
  }

  /** The stop reason of a run that went through every stage (sets the failure it implies). */
  StopReason decide(boolean modelPlanner) {
    if (!verification.passed()) {
      failure =
          new RunFailure(
              RunStage.VERIFICATION,
              RunFailure.VERIFICATION_FAILED,
              String.join("; ", verification.reasons()));
      return StopReason.VERIFICATION_FAILED;
    }
    if (synthesis.answerStatus() == AnswerStatus.UNAVAILABLE) {
      failure = new RunFailure(RunStage.SYNTHESIS, RunFailure.MODEL_UNAVAILABLE, synthesis.error());
      return StopReason.SYNTHESIS_UNAVAILABLE;
    }
    if (synthesis.answerStatus() == AnswerStatus.ERROR) {
      failure = new RunFailure(RunStage.SYNTHESIS, RunFailure.MODEL_ERROR, synthesis.error());
      return StopReason.SYNTHESIS_FAILED;
    }
    if (!pack.hasEvidence() || synthesis.answerStatus() == AnswerStatus.NO_EVIDENCE) {
      return StopReason.NO_EVIDENCE;
    }
    if (modelPlanner && plannerInfo.error() != null) {
      return StopReason.PLANNER_FAILED_DETERMINISTIC_USED;
    }
    return finalJudge.verdict() == Verdict.ENOUGH_EVIDENCE
        ? StopReason.ENOUGH_EVIDENCE
        : StopReason.WEAK_EVIDENCE_BUDGET_EXHAUSTED;
  }

  /** What a surface shows: the answer's status, or its verification failure. */
  Outcome status() {
    if (synthesis == null) {
      return Outcome.ERROR;
    }
    if (verification == null) {
      return Outcome.valueOf(synthesis.answerStatus().name());
    }
    return Outcome.of(synthesis, verification);
  }

  RunMetrics metrics(long elapsedMs, int steps, boolean modelPlanner) {
    return new RunMetrics(
        elapsedMs,
        steps,
        variantCount,
        rowsRetrieved,
        candidates,
        pack == null ? 0 : pack.evidence().size(),
        inspections.size(),
        modelCalls,
        plannerChars,
        synthesisChars,
        prepared == null ? 0 : prepared.input().length(),
        tokens.get(),
        modelPlanner && plannerInfo.error() != null,
        0);
  }
}
