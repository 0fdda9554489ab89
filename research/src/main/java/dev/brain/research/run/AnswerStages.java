package dev.brain.research.run;

import static dev.brain.research.run.StageData.data;
import static dev.brain.research.run.StageData.min;
import static dev.brain.research.run.StageData.seconds;
import static dev.brain.research.run.StageData.synthesisInput;
import static dev.brain.research.run.StageData.synthesisModelId;

import dev.brain.models.chat.ChatModel;
import dev.brain.research.pack.EvidenceMerge;
import dev.brain.research.pack.RankingTrace;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.run.ProgressEvent.Status;
import dev.brain.research.synthesis.AnswerStatus;
import dev.brain.research.synthesis.Citation;
import dev.brain.research.synthesis.ExtractiveSynthesizer;
import dev.brain.research.synthesis.ModelSynthesizer;
import dev.brain.research.synthesis.SynthesisInput;
import dev.brain.research.synthesis.SynthesisOptions;
import dev.brain.research.synthesis.Truncation;
import dev.brain.research.synthesis.Verifier;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The answer half of a run: prepare the synthesis input (adding pinned evidence), synthesize and
 * verify. Each stage reads and fills the run's {@link RunState}.
 */
final class AnswerStages {
  private final Retriever retriever;
  private final RunRequest request;
  private final ResearchOptions options;
  private final RunBudgets budgets;
  private final RunListener listener;
  private final Stages stages;
  private final RunState state;

  AnswerStages(
      Retriever retriever,
      RunRequest request,
      ResearchOptions options,
      RunListener listener,
      Stages stages,
      RunState state) {
    this.retriever = retriever;
    this.request = request;
    this.options = options;
    this.budgets = request.budgets();
    this.listener = listener;
    this.stages = stages;
    this.state = state;
  }

  void prepare() throws IOException {
    stages.begin(RunStage.PREPARATION, "Preparing the synthesis input", Map.of());
    List<String> pins = request.continuity().pinnedEvidenceKeys();
    if (!pins.isEmpty()) {
      var merged = EvidenceMerge.pinned(retriever, state.pack, pins, options);
      state.pack = merged.pack();
      state.pinned = merged.report();
    }
    state.prepared = SynthesisInput.prepare(state.pack, request.synthesis(), retriever);
    state.sidecars.put(RunTraces.SYNTHESIS_INPUT, synthesisInput(state.prepared));
    Truncation t = state.prepared.truncation();
    stages.end(
        RunStage.PREPARATION,
        Status.COMPLETED,
        state.prepared.citableSources().size()
            + " rows in the input ("
            + t.evidenceCharsUsed()
            + " of "
            + t.evidenceBudgetChars()
            + " characters)"
            + (t.truncated() ? "; " + t.droppedSourceKeys().size() + " dropped" : ""),
        data(
            "included_keys",
            state.prepared.citableSources().stream().map(Citation::sourceKey).toList(),
            "evidence_chars_used",
            t.evidenceCharsUsed(),
            "dropped_source_keys",
            t.droppedSourceKeys(),
            "dropped",
            t.droppedSourceKeys().stream()
                .map(k -> new RankingTrace.Dropped(k, RankingTrace.EVIDENCE_BUDGET))
                .toList(),
            "trimmed_source_key",
            t.partiallyTrimmedSourceKey(),
            "pinned_added",
            state.pinned == null ? List.of() : state.pinned.accepted(),
            "answer_status",
            state.prepared.answerStatus().wireName()));
  }

  void synthesize() {
    ChatModel model = request.model();
    stages.begin(
        RunStage.SYNTHESIS,
        model == null ? "Writing an extractive answer" : "Asking " + model.id() + " for an answer",
        data("model", synthesisModelId(request)));
    if (model == null) {
      // What no top row matched after every retry, when the evidence stayed weak. Not the one
      // plain word an otherwise direct match lacks, which the judge counts as enough ("What causes
      // blossom end rot?" answered by a note that never says "causes").
      List<String> unmatched =
          state.finalJudge == null
                  || state.finalJudge.verdict() == JudgeVerdict.Verdict.ENOUGH_EVIDENCE
              ? List.of()
              : state.finalJudge.missingConcepts();
      state.synthesis = ExtractiveSynthesizer.answer(state.prepared, retriever, unmatched);
    } else {
      SynthesisOptions bounded =
          request.synthesis().withTimeout(min(request.synthesis().timeout(), budgets.synthesis()));
      if (state.prepared.answerStatus() != AnswerStatus.NO_EVIDENCE) {
        state.modelCalls++;
        state.synthesisChars =
            state.prepared.systemPrompt().length() + state.prepared.input().length();
      }
      state.synthesis =
          stages
              .clock()
              .modelCall(
                  () ->
                      ModelSynthesizer.answer(
                          state.prepared,
                          model,
                          bounded,
                          token -> {
                            state.tokens.incrementAndGet();
                            try {
                              listener.onToken(token);
                            } catch (RuntimeException e) {
                              // A failing listener never breaks the run.
                            }
                          }));
    }
    stages.checkStop(RunStage.SYNTHESIS);
    if (state.synthesis.answerStatus() == AnswerStatus.ERROR
        && state.synthesis.error() != null
        && state.synthesis.error().startsWith("timeout")) {
      throw new RunStop(
          StopReason.TIMEOUT_EXCEEDED,
          new RunFailure(
              RunStage.SYNTHESIS,
              RunFailure.STAGE_BUDGET_EXCEEDED,
              "synthesis ran out of its "
                  + seconds(min(request.synthesis().timeout(), budgets.synthesis()))
                  + " budget: "
                  + state.synthesis.error()));
    }
    boolean failed =
        state.synthesis.answerStatus() == AnswerStatus.ERROR
            || state.synthesis.answerStatus() == AnswerStatus.UNAVAILABLE;
    stages.endHard(
        RunStage.SYNTHESIS,
        failed
            ? "No answer ("
                + state.synthesis.answerStatus().wireName()
                + "): "
                + state.synthesis.error()
            : "Answer ready ("
                + state.synthesis.answerStatus().wireName()
                + ", "
                + state.synthesis.citations().size()
                + " citations)",
        data(
            "answer_status",
            state.synthesis.answerStatus().wireName(),
            "citations",
            state.synthesis.citations().stream().map(Citation::sourceKey).toList(),
            "tokens",
            state.tokens.get()));
  }

  void verify() {
    stages.begin(RunStage.VERIFICATION, "Checking citations", Map.of());
    state.verification = Verifier.verify(state.pack, state.synthesis);
    var warnings = state.verification.warnings();
    if (state.verification.passed()) {
      stages.endHard(
          RunStage.VERIFICATION,
          warnings.isEmpty()
              ? "Every hard gate passed"
              : "Every hard gate passed; soft gates: "
                  + warnings.stream().map(w -> w.message()).collect(Collectors.joining("; ")),
          data("passed", true, "soft_warnings", warnings.size()));
    } else {
      stages.stageTiming(RunStage.VERIFICATION);
      stages.emit(
          RunStage.VERIFICATION,
          Status.FAILED,
          "Verification failed: " + String.join("; ", state.verification.reasons()),
          data("passed", false, "reasons", state.verification.reasons()));
    }
  }

  /**
   * The optional review: with a reviewer and an answer, the model is asked which statements its
   * evidence does not support. Recorded (events, sidecars), never changing the verdict; a failing
   * reviewer is recorded as such and the run goes on.
   */
  void review() {
    ChatModel reviewer = request.reviewer();
    if (reviewer == null) {
      return;
    }
    if (state.synthesis == null
        || !state.synthesis.answerStatus().isAnswer()
        || state.prepared == null
        || state.verification == null
        || !state.verification.passed()) {
      stages.emit(
          RunStage.REVIEW,
          Status.SKIPPED,
          "No verified answer to review",
          data("model", reviewer.id()));
      return;
    }
    stages.begin(
        RunStage.REVIEW,
        "Asking " + reviewer.id() + " to review the answer against its evidence",
        data("model", reviewer.id(), "prompt_version", AnswerReview.VERSION));
    AnswerReview.Outcome outcome =
        stages
            .clock()
            .modelCall(
                () ->
                    AnswerReview.review(
                        reviewer,
                        state.prepared.input(),
                        state.synthesis.answer(),
                        min(budgets.synthesis(), request.synthesis().timeout())));
    state.modelCalls++;
    state.sidecars.put(RunTraces.REVIEW_INPUT, outcome.input());
    if (outcome.reply() != null) {
      state.sidecars.put(RunTraces.REVIEW_OUTPUT, outcome.reply());
    }
    stages.checkStop(RunStage.REVIEW);
    var findings = outcome.findings();
    if (outcome.error() != null) {
      stages.stageTiming(RunStage.REVIEW);
      stages.emit(
          RunStage.REVIEW,
          Status.FAILED,
          "No review (" + outcome.error() + "); the answer stands as verified",
          data("model", reviewer.id(), "error", outcome.error()));
      return;
    }
    stages.end(
        RunStage.REVIEW,
        Status.COMPLETED,
        findings.isEmpty()
            ? reviewer.id() + " found no unsupported statement (advisory)"
            : reviewer.id()
                + " flagged "
                + findings.size()
                + (findings.size() == 1 ? " statement" : " statements")
                + " (advisory, the verdict stands): "
                + String.join("; ", findings),
        data("model", reviewer.id(), "findings", findings));
  }
}
