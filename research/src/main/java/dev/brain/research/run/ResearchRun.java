package dev.brain.research.run;

import dev.brain.index.BrainIndex;
import dev.brain.models.chat.ChatModel;
import dev.brain.research.pack.EvidenceMerge;
import dev.brain.research.pack.Inspector;
import dev.brain.research.pack.MergeReport;
import dev.brain.research.pack.PackBuilder;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.pack.RowInspection;
import dev.brain.research.plan.ChatContinuity;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.ModelPlanner;
import dev.brain.research.plan.PlannerInfo;
import dev.brain.research.plan.PlannerPrompt;
import dev.brain.research.plan.QueryAnalyzer;
import dev.brain.research.plan.Strategy;
import dev.brain.research.run.JudgeVerdict.RetryAction;
import dev.brain.research.run.JudgeVerdict.Verdict;
import dev.brain.research.run.ProgressEvent.Status;
import dev.brain.research.synthesis.AnswerStatus;
import dev.brain.research.synthesis.Citation;
import dev.brain.research.synthesis.ExtractiveSynthesizer;
import dev.brain.research.synthesis.ModelSynthesizer;
import dev.brain.research.synthesis.PreparedSynthesis;
import dev.brain.research.synthesis.ResearchResult.Outcome;
import dev.brain.research.synthesis.SynthesisInput;
import dev.brain.research.synthesis.SynthesisOptions;
import dev.brain.research.synthesis.SynthesisResult;
import dev.brain.research.synthesis.Truncation;
import dev.brain.research.synthesis.Verification;
import dev.brain.research.synthesis.Verifier;
import dev.brain.research.trace.PruneReport;
import dev.brain.research.trace.ResearchTrace;
import dev.brain.research.trace.TraceMarkdown;
import dev.brain.research.trace.TraceStore;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.InvalidSearchException;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One research run: the bounded state machine behind {@link ResearchRunner}. Plan, retrieve (no
 * related rows), inspect the top rows, judge, at most one focused retry or related expansion,
 * prepare the synthesis input (adding pinned evidence), synthesize, verify, persist the trace.
 * Every stage emits progress events; every stage start counts as a step; the deadline and stage
 * budgets are checked at every stage boundary and enforced inside model calls by {@link RunClock}.
 * Not thread-safe: one instance runs once, on the caller's thread.
 */
final class ResearchRun {

  private final BrainIndex index;
  private final Retriever retriever;
  private final TraceStore traces;
  private final RunRequest request;
  private final RunListener listener;
  private final RunBudgets budgets;
  private final ResearchOptions options;
  private final String runId;
  private final Instant startedAt = Instant.now();
  private final String retrievalQuestion;
  private final List<ProgressEvent> events = new ArrayList<>();
  private final Map<String, Long> timings = new LinkedHashMap<>();
  private final Map<String, String> sidecars = new LinkedHashMap<>();
  private final Set<String> queriesRun = new HashSet<>();
  private RunClock clock;

  private Strategy strategy;
  private PlannerInfo plannerInfo = PlannerInfo.DETERMINISTIC;
  private ResearchPack pack;
  private List<RowInspection> inspections = List.of();
  private JudgeVerdict judge;
  private JudgeVerdict finalJudge;
  private MergeReport merge;
  private MergeReport pinned;
  private PreparedSynthesis prepared;
  private SynthesisResult synthesis;
  private Verification verification;
  private StopReason stopReason;
  private RunFailure failure;

  private int steps;
  private long stageStart;
  private RunStage current = RunStage.RUN;
  private int variantCount;
  private int rowsRetrieved;
  private int candidates;
  private int modelCalls;
  private long plannerChars;
  private long synthesisChars;
  private final AtomicInteger tokens = new AtomicInteger();

  ResearchRun(
      BrainIndex index,
      Retriever retriever,
      TraceStore traces,
      RunRequest request,
      RunListener listener) {
    this.index = index;
    this.retriever = retriever;
    this.traces = traces;
    this.request = request;
    this.listener = listener == null ? RunListener.NONE : listener;
    this.budgets = request.budgets();
    this.options = request.options().withIncludeRelated(false);
    this.runId = TraceStore.newRunId(startedAt);
    this.retrievalQuestion = request.continuity().retrievalQuestion(request.question());
    // Fails fast (no trace) on a question without searchable words.
    this.strategy = QueryAnalyzer.analyze(retrievalQuestion, options.semantic());
  }

  /** A stop of the run before its normal end. */
  private static final class Stop extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient StopReason reason;
    final transient RunFailure failure;

    Stop(StopReason reason, RunFailure failure) {
      super(failure.message(), null, false, false);
      this.reason = reason;
      this.failure = failure;
    }
  }

  RunResult execute() throws IOException {
    IOException ioError = null;
    RuntimeException bug = null;
    try (RunClock c = new RunClock(budgets.deadline())) {
      clock = c;
      emit(
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
              "model",
              synthesisModelId(),
              "trace",
              request.trace()));
      try {
        plan();
        retrieve();
        inspect();
        judgeEvidence();
        extraPass();
        prepare();
        synthesize();
        verify();
        stopReason = decide();
      } catch (Stop s) {
        stopReason = s.reason;
        failure = s.failure;
        emit(
            s.failure.stage(),
            Status.FAILED,
            s.failure.message(),
            data("code", s.failure.code(), "stop_reason", s.reason.wireName()));
      } catch (InvalidSearchException e) {
        throw e; // a bad option (an unknown source type): the caller's error, no trace
      } catch (IOException e) {
        ioError = e;
        failure = new RunFailure(current, RunFailure.IO_ERROR, "the index could not be read: " + e);
        emit(current, Status.FAILED, failure.message(), data("code", failure.code()));
      } catch (RuntimeException e) {
        bug = e;
        failure = new RunFailure(current, RunFailure.INTERNAL_ERROR, e.toString());
        emit(current, Status.FAILED, failure.message(), data("code", failure.code()));
      }
    }
    // A caller's interrupt (cancellation) must not stop the partial trace from being written.
    boolean interrupted = Thread.interrupted();
    try {
      RunResult result = finish();
      if (ioError != null) {
        throw ioError;
      }
      if (bug != null) {
        throw bug;
      }
      return result;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  // ---- stages

  private void plan() {
    ChatModel planner = request.planner();
    if (planner == null) {
      begin(RunStage.PLANNING, "Planning deterministically", Map.of());
      end(RunStage.PLANNING, Status.COMPLETED, planSummary(strategy), planData(strategy));
      return;
    }
    begin(RunStage.PLANNING, "Asking " + planner.id() + " for a plan", data("model", planner.id()));
    Duration timeout = min(budgets.planning(), options.plannerTimeout());
    Strategy base = strategy;
    ModelPlanner.Outcome outcome = clock.modelCall(() -> ModelPlanner.plan(planner, base, timeout));
    modelCalls++;
    plannerChars = PlannerPrompt.SYSTEM.length() + outcome.input().length();
    sidecars.put(TraceStore.PLANNER_INPUT, plannerInput(outcome.input()));
    if (outcome.output() != null) {
      boolean json = ModelPlanner.parse(outcome.output()) != null;
      sidecars.put(
          json ? TraceStore.PLANNER_OUTPUT_JSON : TraceStore.PLANNER_OUTPUT_TXT, outcome.output());
    }
    strategy = outcome.strategy();
    plannerInfo = outcome.info();
    checkStop(RunStage.PLANNING);
    if (plannerInfo.error() != null) {
      end(
          RunStage.PLANNING,
          Status.FAILED,
          "Model plan not used (" + plannerInfo.error() + "); using the deterministic plan",
          merge(planData(strategy), data("planner_error", plannerInfo.error())));
    } else {
      end(RunStage.PLANNING, Status.COMPLETED, planSummary(strategy), planData(strategy));
    }
  }

  private void retrieve() throws IOException {
    begin(
        RunStage.RETRIEVAL,
        "Searching " + strategy.variants().size() + " query variants",
        data("variants", strategy.variants().size()));
    PackBuilder.Built built =
        new PackBuilder(index, retriever).build(strategy, options, plannerInfo);
    pack = built.pack();
    variantCount = strategy.variants().size();
    rowsRetrieved = built.rowsRetrieved();
    candidates = built.candidates();
    strategy.variants().forEach(v -> queriesRun.add(v.query().toLowerCase(Locale.ROOT)));
    String message =
        pack.hasEvidence()
            ? "Found "
                + pack.evidence().size()
                + " evidence rows; top: "
                + pack.evidence().get(0).sourceKey()
            : pack.coverage().recallNote(); // "No evidence: no record matched ..."
    endHard(
        RunStage.RETRIEVAL,
        message,
        data(
            // A list, never a map keyed by query text: a question is free text of any length.
            "rows_per_variant",
            built.rowsPerVariant().entrySet().stream()
                .map(e -> data("query", e.getKey(), "rows", e.getValue()))
                .toList(),
            "candidates_before_dedupe",
            rowsRetrieved,
            "candidates_after_dedupe",
            candidates,
            "evidence_keys",
            keys(pack.evidence()),
            "exact_tag_keys",
            keys(pack.exactTagEvidence()),
            "missing_concepts",
            pack.coverage().missingConcepts()));
  }

  private void inspect() throws IOException {
    if (!pack.hasEvidence() || budgets.inspectRows() == 0) {
      emit(
          RunStage.INSPECTION,
          Status.SKIPPED,
          pack.hasEvidence() ? "Inspection switched off" : "Nothing to inspect",
          Map.of());
      return;
    }
    int rows =
        Math.min(
            budgets.inspectRows(),
            (int) pack.evidence().stream().filter(r -> !r.isRelated()).count());
    begin(RunStage.INSPECTION, "Reading the top " + rows + " rows", data("rows", rows));
    long budgetEnd = System.nanoTime() + budgets.inspection().toNanos();
    Inspector.Outcome outcome =
        Inspector.inspect(
            index,
            pack,
            rows,
            budgets.inspectChars(),
            () -> System.nanoTime() - budgetEnd > 0 || clock.expired() || interrupted());
    pack = outcome.pack();
    inspections = outcome.inspections();
    var found = new LinkedHashMap<String, Object>();
    inspections.stream()
        .filter(i -> !i.newlyMatched().isEmpty())
        .forEach(i -> found.put(i.sourceKey(), i.newlyMatched()));
    String message =
        "Inspected "
            + inspections.size()
            + " rows"
            + (found.isEmpty() ? "" : "; deeper windows found " + found)
            + (outcome.outOfBudget() ? "; stopped at the inspection budget" : "");
    end(
        RunStage.INSPECTION,
        Status.COMPLETED,
        message,
        data(
            "inspected",
            inspections.stream().map(RowInspection::sourceKey).toList(),
            "newly_matched",
            found,
            "out_of_budget",
            outcome.outOfBudget()));
  }

  private void judgeEvidence() {
    begin(RunStage.JUDGE, "Judging the evidence", Map.of());
    judge =
        Judge.judge(
            new Judge.Input(
                pack, queriesRun, budgets.maxRetrievalPasses() - 1, budgets.relatedLimit() > 0));
    finalJudge = judge;
    end(
        RunStage.JUDGE,
        Status.COMPLETED,
        judge.verdict().wireName()
            + ": "
            + judge.reason()
            + (judge.retryAction() == RetryAction.NONE
                ? ""
                : " Next: " + judge.retryAction().wireName()),
        verdictData(judge));
  }

  private void extraPass() throws IOException {
    switch (judge.retryAction()) {
      case FOCUSED_RETRY -> retry(judge.retryQuery());
      case RELATED_EXPANSION -> expand(judge.expansionLookup());
      case NONE -> {
        if (judge.verdict() != Verdict.ENOUGH_EVIDENCE) {
          emit(
              RunStage.RETRY, Status.SKIPPED, "No retry or expansion: " + judge.reason(), Map.of());
        }
      }
    }
  }

  private void retry(String query) throws IOException {
    begin(RunStage.RETRY, "Focused retry: \"" + query + "\"", data("query", query));
    ResearchPack retryPack;
    try {
      Strategy focused = QueryAnalyzer.analyze(query, options.semantic());
      retryPack =
          new PackBuilder(index, retriever)
              .build(focused, options, PlannerInfo.DETERMINISTIC)
              .pack();
    } catch (InvalidSearchException e) {
      end(
          RunStage.RETRY,
          Status.FAILED,
          "The retry query is not searchable: " + e.getMessage(),
          Map.of());
      return;
    }
    queriesRun.add(query.toLowerCase(Locale.ROOT));
    var merged =
        EvidenceMerge.retry(
            pack, retryPack, query, judge.missingConcepts(), budgets.retryAcceptLimit(), options);
    acceptMerge(RunStage.RETRY, "Retry added ", " rows (rejected ", merged);
  }

  private void expand(String lookup) throws IOException {
    begin(RunStage.EXPANSION, "Following the links of " + lookup, data("lookup", lookup));
    var merged = EvidenceMerge.expand(index, pack, lookup, budgets.relatedLimit(), options);
    acceptMerge(RunStage.EXPANSION, "Expansion added ", " related rows (rejected ", merged);
  }

  /** Takes a retry or expansion result as the pack, judges it again and ends the stage. */
  private void acceptMerge(
      RunStage stage, String added, String rejected, EvidenceMerge.Merged merged) {
    pack = merged.pack();
    merge = merged.report();
    finalJudge = Judge.judge(new Judge.Input(pack, queriesRun, 0, false));
    endHard(
        stage,
        added
            + merge.accepted().size()
            + rejected
            + merge.rejected().size()
            + "); verdict now "
            + finalJudge.verdict().wireName(),
        merge(mergeData(merge), data("verdict", finalJudge.verdict().wireName())));
  }

  private void prepare() throws IOException {
    begin(RunStage.PREPARATION, "Preparing the synthesis input", Map.of());
    List<String> pins = request.continuity().pinnedEvidenceKeys();
    if (!pins.isEmpty()) {
      var merged = EvidenceMerge.pinned(index, pack, pins, options);
      pack = merged.pack();
      pinned = merged.report();
    }
    prepared = SynthesisInput.prepare(pack, request.synthesis());
    sidecars.put(TraceStore.SYNTHESIS_INPUT, synthesisInput(prepared));
    Truncation t = prepared.truncation();
    end(
        RunStage.PREPARATION,
        Status.COMPLETED,
        prepared.citableSources().size()
            + " rows in the input ("
            + t.evidenceCharsUsed()
            + " of "
            + t.evidenceBudgetChars()
            + " characters)"
            + (t.truncated() ? "; " + t.droppedSourceKeys().size() + " dropped" : ""),
        data(
            "included_keys",
            prepared.citableSources().stream().map(Citation::sourceKey).toList(),
            "evidence_chars_used",
            t.evidenceCharsUsed(),
            "dropped_source_keys",
            t.droppedSourceKeys(),
            "pinned_added",
            pinned == null ? List.of() : pinned.accepted(),
            "answer_status",
            prepared.answerStatus().wireName()));
  }

  private void synthesize() {
    ChatModel model = request.model();
    begin(
        RunStage.SYNTHESIS,
        model == null ? "Writing an extractive answer" : "Asking " + model.id() + " for an answer",
        data("model", synthesisModelId()));
    if (model == null) {
      synthesis = ExtractiveSynthesizer.answer(prepared);
    } else {
      SynthesisOptions bounded =
          request.synthesis().withTimeout(min(request.synthesis().timeout(), budgets.synthesis()));
      if (prepared.pack().hasEvidence()) {
        modelCalls++;
        synthesisChars = prepared.systemPrompt().length() + prepared.input().length();
      }
      synthesis =
          clock.modelCall(
              () ->
                  ModelSynthesizer.answer(
                      prepared,
                      model,
                      bounded,
                      token -> {
                        tokens.incrementAndGet();
                        try {
                          listener.onToken(token);
                        } catch (RuntimeException e) {
                          // A failing listener never breaks the run.
                        }
                      }));
    }
    checkStop(RunStage.SYNTHESIS);
    if (synthesis.answerStatus() == AnswerStatus.ERROR
        && synthesis.error() != null
        && synthesis.error().startsWith("timeout")) {
      throw new Stop(
          StopReason.TIMEOUT_EXCEEDED,
          new RunFailure(
              RunStage.SYNTHESIS,
              RunFailure.STAGE_BUDGET_EXCEEDED,
              "synthesis ran out of its "
                  + seconds(min(request.synthesis().timeout(), budgets.synthesis()))
                  + " budget: "
                  + synthesis.error()));
    }
    boolean failed =
        synthesis.answerStatus() == AnswerStatus.ERROR
            || synthesis.answerStatus() == AnswerStatus.UNAVAILABLE;
    endHard(
        RunStage.SYNTHESIS,
        failed
            ? "No answer (" + synthesis.answerStatus().wireName() + "): " + synthesis.error()
            : "Answer ready ("
                + synthesis.answerStatus().wireName()
                + ", "
                + synthesis.citations().size()
                + " citations)",
        data(
            "answer_status",
            synthesis.answerStatus().wireName(),
            "citations",
            synthesis.citations().stream().map(Citation::sourceKey).toList(),
            "tokens",
            tokens.get()));
  }

  private void verify() {
    begin(RunStage.VERIFICATION, "Checking citations", Map.of());
    verification = Verifier.verify(pack, synthesis);
    if (verification.passed()) {
      endHard(RunStage.VERIFICATION, "Every hard gate passed", data("passed", true));
    } else {
      stageTiming(RunStage.VERIFICATION);
      emit(
          RunStage.VERIFICATION,
          Status.FAILED,
          "Verification failed: " + String.join("; ", verification.reasons()),
          data("passed", false, "reasons", verification.reasons()));
    }
  }

  private StopReason decide() {
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
    if (!pack.hasEvidence()) {
      return StopReason.NO_EVIDENCE;
    }
    if (request.planner() != null && plannerInfo.error() != null) {
      return StopReason.PLANNER_FAILED_DETERMINISTIC_USED;
    }
    return finalJudge.verdict() == Verdict.ENOUGH_EVIDENCE
        ? StopReason.ENOUGH_EVIDENCE
        : StopReason.WEAK_EVIDENCE_BUDGET_EXHAUSTED;
  }

  // ---- the end: trace and result

  /** Writes the trace (also of a failed run) and returns the result, or null after a failure. */
  private RunResult finish() {
    Outcome status = status();
    RunMetrics metrics = metrics();
    String tracePath = null;
    String traceError = null;
    if (request.trace() && traces != null) {
      emit(RunStage.TRACE, Status.STARTED, "Saving the trace", Map.of());
      long start = System.nanoTime();
      try {
        ResearchTrace trace = trace(status, metrics);
        TraceStore.Written written =
            traces.write(trace, TraceMarkdown.render(trace), Map.copyOf(sidecars));
        tracePath = written.path().toString();
        metrics = metrics.withArtifactBytes(written.bytes());
        PruneReport pruned =
            traces.prune(
                traces.retention(),
                Set.of(runId),
                Instant.now(),
                Instant.now().plus(budgets.trace()));
        timings.put(RunStage.TRACE.wireName(), ms(start));
        emit(
            RunStage.TRACE,
            Status.COMPLETED,
            "Trace saved: " + tracePath,
            data("path", tracePath, "bytes", written.bytes(), "pruned", pruned.deleted()));
      } catch (IOException | RuntimeException e) {
        traceError = e.toString();
        timings.put(RunStage.TRACE.wireName(), ms(start));
        emit(RunStage.TRACE, Status.FAILED, "Trace not saved: " + e, Map.of());
      }
    } else {
      emit(RunStage.TRACE, Status.SKIPPED, "Trace switched off", Map.of());
    }
    if (stopReason != null) {
      emit(
          RunStage.RUN,
          Status.COMPLETED,
          "Stopped: " + stopReason.wireName() + " (" + status.wireName() + ")",
          data(
              "stop_reason",
              stopReason.wireName(),
              "status",
              status.wireName(),
              "trace_path",
              tracePath,
              "duration_ms",
              clock == null ? 0 : clock.elapsedMs()));
    }
    if (stopReason == null) {
      return null; // the run failed with an exception, which the caller gets instead
    }
    return new RunResult(
        RunResult.SCHEMA_VERSION,
        runId,
        request.question(),
        retrievalQuestion,
        stopReason,
        status,
        synthesis,
        verification,
        failure,
        judge,
        finalJudge,
        merge,
        pinned,
        inspections,
        timings,
        metrics,
        events,
        tracePath,
        traceError,
        pack,
        prepared);
  }

  private Outcome status() {
    if (synthesis == null) {
      return Outcome.ERROR;
    }
    if (verification == null) {
      return Outcome.valueOf(synthesis.answerStatus().name());
    }
    return Outcome.of(synthesis, verification);
  }

  private RunMetrics metrics() {
    return new RunMetrics(
        clock.elapsedMs(),
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
        request.planner() != null && plannerInfo.error() != null,
        0);
  }

  private ResearchTrace trace(Outcome status, RunMetrics metrics) {
    var artifacts = new LinkedHashMap<String, String>();
    for (String name : sidecars.keySet()) {
      artifacts.put(name.replaceAll("\\.(md|json|txt)$", "").replace('-', '_'), name);
    }
    ChatContinuity c = request.continuity();
    return new ResearchTrace(
        ResearchTrace.SCHEMA_VERSION,
        runId,
        request.surface(),
        startedAt.toString(),
        Instant.now().toString(),
        request.question(),
        retrievalQuestion,
        new ResearchTrace.Continuity(
            request.question(),
            retrievalQuestion,
            c.priorQuestions(),
            c.pinnedEvidenceKeys(),
            c.priorEvidenceKeys()),
        RunSettings.of(request),
        stopReason,
        status,
        failure,
        judge,
        finalJudge,
        merge,
        pinned,
        inspections,
        timings,
        metrics,
        artifacts,
        List.copyOf(events),
        synthesis,
        verification,
        prepared,
        pack);
  }

  // ---- bounds

  /** Starts a stage: deadline and cancellation first, then the step budget. */
  private void begin(RunStage stage, String message, Map<String, Object> data) {
    current = stage;
    checkStop(stage);
    if (steps >= budgets.maxSteps()) {
      throw new Stop(
          StopReason.MAX_STEPS_REACHED,
          new RunFailure(
              stage,
              RunFailure.MAX_STEPS,
              "the step budget of "
                  + budgets.maxSteps()
                  + " was used up before "
                  + stage.wireName()));
    }
    steps++;
    stageStart = System.nanoTime();
    emit(stage, Status.STARTED, message, data);
  }

  /** Stops the run when the deadline passed or the caller cancelled it. */
  private void checkStop(RunStage stage) {
    if (clock.expired()) {
      throw new Stop(
          StopReason.TIMEOUT_EXCEEDED,
          new RunFailure(
              stage,
              RunFailure.DEADLINE_EXCEEDED,
              "the run's deadline of "
                  + seconds(budgets.deadline())
                  + " passed during "
                  + stage.wireName()));
    }
    if (interrupted()) {
      throw new Stop(
          StopReason.CANCELLED,
          new RunFailure(
              stage, RunFailure.CANCELLED, "the run was cancelled during " + stage.wireName()));
    }
  }

  private static boolean interrupted() {
    return Thread.currentThread().isInterrupted();
  }

  private void end(RunStage stage, Status status, String message, Map<String, Object> data) {
    long took = stageTiming(stage);
    emit(stage, status, message, merge(data, data("duration_ms", took)));
  }

  /** Ends a stage whose budget is hard: an overrun stops the run. */
  private void endHard(RunStage stage, String message, Map<String, Object> data) {
    long took = stageTiming(stage);
    Duration budget = budgets.budget(stage);
    if (budget != null && took > budget.toMillis()) {
      throw new Stop(
          StopReason.TIMEOUT_EXCEEDED,
          new RunFailure(
              stage,
              RunFailure.STAGE_BUDGET_EXCEEDED,
              stage.wireName()
                  + " took "
                  + took
                  + " ms, over its budget of "
                  + budget.toMillis()
                  + " ms"));
    }
    emit(stage, Status.COMPLETED, message, merge(data, data("duration_ms", took)));
  }

  private long stageTiming(RunStage stage) {
    long took = ms(stageStart);
    timings.merge(stage.wireName(), took, Long::sum);
    return took;
  }

  private void emit(RunStage stage, Status status, String message, Map<String, Object> data) {
    var event =
        new ProgressEvent(
            events.size() + 1,
            stage,
            status,
            message,
            data,
            clock == null ? 0 : clock.elapsedMs(),
            Instant.now().toString());
    events.add(event);
    try {
      listener.onProgress(event);
    } catch (RuntimeException e) {
      // A failing listener (a client gone away) never breaks the run.
    }
  }

  // ---- helpers

  private static String planSummary(Strategy s) {
    var required = s.required().stream().map(Concept::preferred).toList();
    return "Plan: "
        + s.family().wireName()
        + "; required "
        + String.join(", ", required)
        + "; "
        + s.variants().size()
        + " variants";
  }

  private static Map<String, Object> planData(Strategy s) {
    return data(
        "family",
        s.family().wireName(),
        "text_query",
        s.textQuery(),
        "required",
        s.required().stream().map(Concept::key).toList(),
        "optional",
        s.concepts().stream().filter(c -> !c.required()).map(Concept::key).toList(),
        "variants",
        s.variants().stream().map(Strategy.Variant::query).toList());
  }

  private static Map<String, Object> verdictData(JudgeVerdict v) {
    return data(
        "verdict",
        v.verdict().wireName(),
        "missing_concepts",
        v.missingConcepts(),
        "weak_rows",
        v.weakRows().stream().map(JudgeVerdict.WeakRow::sourceKey).toList(),
        "retry_action",
        v.retryAction().wireName(),
        "retry_query",
        v.retryQuery(),
        "expansion_lookup",
        v.expansionLookup());
  }

  private static Map<String, Object> mergeData(MergeReport m) {
    return data(
        "preserved",
        m.preserved().size(),
        "accepted",
        m.accepted(),
        "rejected",
        m.rejected().stream().map(MergeReport.Rejected::sourceKey).toList());
  }

  private static String plannerInput(String input) {
    return "# Planner input\n\nPrompt version: "
        + PlannerPrompt.VERSION
        + "\n\n## System\n\n"
        + PlannerPrompt.SYSTEM.strip()
        + "\n\n## User\n\n"
        + input.strip()
        + "\n";
  }

  private static String synthesisInput(PreparedSynthesis p) {
    return "# Synthesis input\n\nPrompt version: "
        + p.promptVersion()
        + "\n\n## System\n\n"
        + p.systemPrompt().strip()
        + "\n\n## Input\n\n"
        + p.input().strip()
        + "\n";
  }

  private String synthesisModelId() {
    return request.model() == null ? SynthesisResult.EXTRACTIVE : request.model().id();
  }

  private static String modelId(ChatModel model) {
    return model == null ? null : model.id();
  }

  private static List<String> keys(List<EvidenceRow> rows) {
    return rows.stream().map(EvidenceRow::sourceKey).toList();
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static long ms(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  private static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
  }

  private static String oneLine(String s) {
    return s.replaceAll("\\s+", " ").strip();
  }

  /** An ordered map of alternating keys and values; {@code null} values are left out. */
  private static Map<String, Object> data(Object... pairs) {
    var out = new LinkedHashMap<String, Object>();
    for (int i = 0; i + 1 < pairs.length; i += 2) {
      if (pairs[i + 1] != null) {
        out.put((String) pairs[i], pairs[i + 1]);
      }
    }
    return out;
  }

  private static Map<String, Object> merge(Map<String, Object> a, Map<String, Object> b) {
    var out = new LinkedHashMap<>(a);
    out.putAll(b);
    return out;
  }
}
