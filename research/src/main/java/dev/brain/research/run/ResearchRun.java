package dev.brain.research.run;

import static dev.brain.research.run.StageData.data;
import static dev.brain.research.run.StageData.modelId;
import static dev.brain.research.run.StageData.oneLine;
import static dev.brain.research.run.StageData.synthesisModelId;

import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.plan.QueryAnalyzer;
import dev.brain.research.run.ProgressEvent.Status;
import dev.brain.research.synthesis.ResearchResult.Outcome;
import dev.brain.retrieval.InvalidSearchException;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;

/**
 * One research run: the bounded state machine behind {@link ResearchRunner}. Plan, retrieve (no
 * related rows), inspect the top rows, judge, at most one focused retry or related expansion
 * ({@link EvidenceStages}); prepare the synthesis input (adding pinned evidence), synthesize,
 * verify ({@link AnswerStages}); persist the trace ({@link TraceStep}). {@link Stages} keeps the
 * events, steps and timings and checks the deadline and stage budgets at every stage boundary;
 * {@link RunClock} enforces them inside model calls. Not thread-safe: one instance runs once, on
 * the caller's thread.
 */
final class ResearchRun {

  private final RunTraces traces;
  private final RunRequest request;
  private final String runId;
  private final Instant startedAt = Instant.now();
  private final String retrievalQuestion;
  private final Stages stages;
  private final RunState state;
  private final EvidenceStages evidence;
  private final AnswerStages answer;

  ResearchRun(Retriever retriever, RunTraces traces, RunRequest request, RunListener listener) {
    this.traces = traces;
    this.request = request;
    RunListener events = listener == null ? RunListener.NONE : listener;
    // Retrieval never takes link neighbours: the question's evidence is what answers it. When the
    // request asks for them (the Chat's "Related notes"), the expansion stage adds them after the
    // judge, as it does when the judge asks for one.
    ResearchOptions options = request.options().withIncludeRelated(false);
    this.runId = RunId.next(startedAt);
    this.retrievalQuestion = request.continuity().retrievalQuestion(request.question());
    // Fails fast (no trace) on a question without searchable words.
    this.state = new RunState(QueryAnalyzer.analyze(retrievalQuestion, options.semantic()));
    this.stages = new Stages(request.budgets(), events);
    // The records the run reads are its working set: read once, then kept for later stages.
    Retriever working = retriever.forOneRun();
    this.evidence = new EvidenceStages(working, request, options, stages, state);
    this.answer = new AnswerStages(working, request, options, events, stages, state);
  }

  RunResult execute() throws IOException {
    Exception error = null;
    try (RunClock clock = new RunClock(request.budgets().deadline())) {
      stages.start(clock);
      stages.emit(
          RunStage.RUN,
          Status.STARTED,
          "Researching \"" + oneLine(request.question()) + "\"",
          data(
              "run_id",
              runId,
              "surface",
              request.surface(),
              "planner",
              modelId(request.planner()),
              "reviewer",
              modelId(request.reviewer()),
              "model",
              synthesisModelId(request),
              "trace",
              request.trace()));
      error = runStages();
    }
    // A caller's interrupt (cancellation) must not stop the partial trace from being written.
    boolean interrupted = Thread.interrupted();
    try {
      RunResult result = finish();
      if (error instanceof IOException io) {
        throw io;
      }
      if (error instanceof RuntimeException bug) {
        throw bug;
      }
      return result;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Runs every stage; returns the exception that broke the run, or null. */
  private Exception runStages() {
    try {
      evidence.plan();
      evidence.retrieve();
      evidence.inspect();
      evidence.judge();
      evidence.extraPass();
      answer.prepare();
      answer.synthesize();
      answer.verify();
      answer.review();
      state.stopReason = state.decide(request.planner() != null);
      return null;
    } catch (RunStop s) {
      state.stopReason = s.reason;
      state.failure = s.failure;
      stages.emit(
          s.failure.stage(),
          Status.FAILED,
          s.failure.message(),
          data("code", s.failure.code(), "stop_reason", s.reason.wireName()));
      return null;
    } catch (InvalidSearchException e) {
      throw e; // a bad option (an unknown source type): the caller's error, no trace
    } catch (IOException e) {
      return failed(e, RunFailure.IO_ERROR, "the index could not be read: " + e);
    } catch (RuntimeException e) {
      return failed(e, RunFailure.INTERNAL_ERROR, e.toString());
    }
  }

  private Exception failed(Exception e, String code, String message) {
    state.failure = new RunFailure(stages.current(), code, message);
    stages.emit(stages.current(), Status.FAILED, message, data("code", code));
    return e;
  }

  /** Writes the trace (also of a failed run) and returns the result, or null after a failure. */
  private RunResult finish() {
    Outcome status = state.status();
    RunMetrics metrics =
        state.metrics(stages.elapsedMs(), stages.steps(), request.planner() != null);
    TraceStep.Saved saved = TraceStep.SKIPPED;
    if (request.trace() && traces != null) {
      stages.emit(RunStage.TRACE, Status.STARTED, "Saving the trace", Map.of());
      long start = System.nanoTime();
      RunResult draft = result(status, metrics, null);
      saved = TraceStep.save(traces, stages, start, draft, request, startedAt, state.sidecars);
      metrics = metrics.withArtifactBytes(saved.bytes());
    } else {
      stages.emit(RunStage.TRACE, Status.SKIPPED, "Trace switched off", Map.of());
    }
    if (state.stopReason == null) {
      return null; // the run failed with an exception, which the caller gets instead
    }
    stages.emit(
        RunStage.RUN,
        Status.COMPLETED,
        "Stopped: " + state.stopReason.wireName() + " (" + status.wireName() + ")",
        data(
            "stop_reason",
            state.stopReason.wireName(),
            "status",
            status.wireName(),
            "trace_path",
            saved.path(),
            "duration_ms",
            stages.elapsedMs()));
    return result(status, metrics, saved);
  }

  private RunResult result(Outcome status, RunMetrics metrics, TraceStep.Saved saved) {
    return RunResult.builder(runId, request.question(), status)
        .retrievalQuestion(retrievalQuestion)
        .stopReason(state.stopReason)
        .synthesis(state.synthesis)
        .verification(state.verification)
        .failure(state.failure)
        .judge(state.judge)
        .finalJudge(state.finalJudge)
        .merge(state.merge)
        .pinned(state.pinned)
        .inspections(state.inspections)
        .timings(stages.timings())
        .metrics(metrics)
        .events(stages.events())
        .tracePath(saved == null ? null : saved.path())
        .traceError(saved == null ? null : saved.error())
        .pack(state.pack)
        .preparedSynthesis(state.prepared)
        .build();
  }
}
