package dev.brain.research.run;

import static dev.brain.research.run.StageData.data;
import static dev.brain.research.run.StageData.keys;
import static dev.brain.research.run.StageData.merge;
import static dev.brain.research.run.StageData.mergeData;
import static dev.brain.research.run.StageData.verdictData;

import dev.brain.research.pack.EvidenceMerge;
import dev.brain.research.pack.Inspector;
import dev.brain.research.pack.MergeReport;
import dev.brain.research.pack.PackBuilder;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.pack.RowInspection;
import dev.brain.research.plan.PlannerInfo;
import dev.brain.research.plan.QueryAnalyzer;
import dev.brain.research.plan.Strategy;
import dev.brain.research.run.JudgeVerdict.RetryAction;
import dev.brain.research.run.JudgeVerdict.Verdict;
import dev.brain.research.run.ProgressEvent.Status;
import dev.brain.retrieval.InvalidSearchException;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The evidence half of a run: plan, retrieve, inspect the top rows, judge, and at most one focused
 * retry or related expansion. Each stage reads and fills the run's {@link RunState}.
 */
final class EvidenceStages {
  private final Retriever retriever;
  private final RunRequest request;
  private final ResearchOptions options;
  private final RunBudgets budgets;
  private final Stages stages;
  private final RunState state;

  EvidenceStages(
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

  void plan() throws IOException {
    new PlanningStage(retriever, request, options, stages, state).run();
  }

  void retrieve() throws IOException {
    stages.begin(
        RunStage.RETRIEVAL,
        "Searching " + state.strategy.variants().size() + " query variants",
        data("variants", state.strategy.variants().size()));
    // The planner policy's search is this retrieval when the model was not asked.
    PackBuilder.Built built =
        state.probe != null
            ? state.probe
            : new PackBuilder(retriever).build(state.strategy, options, state.plannerInfo);
    state.pack = built.pack();
    state.variantCount = state.strategy.variants().size();
    state.rowsRetrieved = built.rowsRetrieved();
    state.candidates = built.candidates();
    MergeReport earlier = addEarlierTurns();
    state
        .strategy
        .variants()
        .forEach(v -> state.queriesRun.add(v.query().toLowerCase(Locale.ROOT)));
    String message =
        state.pack.hasEvidence()
            ? "Found "
                + state.pack.evidence().size()
                + " evidence rows; top: "
                + state.pack.evidence().get(0).sourceKey()
            : state.pack.coverage().recallNote(); // "No evidence: no record matched ..."
    stages.endHard(
        RunStage.RETRIEVAL,
        message,
        data(
            // A list, never a map keyed by query text: a question is free text of any length.
            "rows_per_variant",
            built.rowsPerVariant().entrySet().stream()
                .map(e -> data("query", e.getKey(), "rows", e.getValue()))
                .toList(),
            "candidates_before_dedupe",
            state.rowsRetrieved,
            "candidates_after_dedupe",
            state.candidates,
            // Bounded (RankingTrace): the keys per variant, the re-scoring, what was left out.
            "variant_keys",
            built.ranking().variants(),
            "rescored",
            built.ranking().rescored(),
            "dropped",
            built.ranking().dropped(),
            "dropped_more",
            built.ranking().droppedMore() == 0 ? null : built.ranking().droppedMore(),
            "evidence_keys",
            keys(state.pack.evidence()),
            "exact_tag_keys",
            keys(state.pack.exactTagEvidence()),
            "missing_concepts",
            state.pack.coverage().missingConcepts(),
            "earlier_turn",
            earlier));
  }

  /**
   * A follow-up's candidates from the earlier turns' evidence, read again and kept only when they
   * match this question; {@code null} when the question continues no earlier turn.
   */
  private MergeReport addEarlierTurns() throws IOException {
    var keys = request.continuity().priorEvidenceKeys();
    if (state.strategy.followUp() == null || keys.isEmpty()) {
      return null;
    }
    var merged = EvidenceMerge.earlierTurns(retriever, state.pack, keys, options);
    state.pack = merged.pack();
    return merged.report();
  }

  void inspect() throws IOException {
    if (!state.pack.hasEvidence() || budgets.inspectRows() == 0) {
      stages.emit(
          RunStage.INSPECTION,
          Status.SKIPPED,
          state.pack.hasEvidence() ? "Inspection switched off" : "Nothing to inspect",
          Map.of());
      return;
    }
    int rows =
        Math.min(
            budgets.inspectRows(),
            (int) state.pack.evidence().stream().filter(r -> !r.isRelated()).count());
    stages.begin(RunStage.INSPECTION, "Reading the top " + rows + " rows", data("rows", rows));
    long budgetEnd = System.nanoTime() + budgets.inspection().toNanos();
    Inspector.Outcome outcome =
        Inspector.inspect(
            retriever,
            state.pack,
            rows,
            budgets.inspectChars(),
            () ->
                System.nanoTime() - budgetEnd > 0
                    || stages.clock().expired()
                    || Stages.interrupted());
    state.pack = outcome.pack();
    state.inspections = outcome.inspections();
    var found = new LinkedHashMap<String, Object>();
    state.inspections.stream()
        .filter(i -> !i.newlyMatched().isEmpty())
        .forEach(i -> found.put(i.sourceKey(), i.newlyMatched()));
    String message =
        "Inspected "
            + state.inspections.size()
            + " rows"
            + (found.isEmpty() ? "" : "; deeper windows found " + found)
            + (outcome.outOfBudget() ? "; stopped at the inspection budget" : "");
    stages.end(
        RunStage.INSPECTION,
        Status.COMPLETED,
        message,
        data(
            "inspected",
            state.inspections.stream().map(RowInspection::sourceKey).toList(),
            "newly_matched",
            found,
            "out_of_budget",
            outcome.outOfBudget()));
  }

  void judge() {
    stages.begin(RunStage.JUDGE, "Judging the evidence", Map.of());
    state.judge =
        Judge.judge(
            new Judge.Input(
                state.pack,
                state.queriesRun,
                budgets.maxRetrievalPasses() - 1,
                budgets.relatedLimit() > 0));
    state.finalJudge = state.judge;
    stages.end(
        RunStage.JUDGE,
        Status.COMPLETED,
        state.judge.verdict().wireName()
            + ": "
            + state.judge.reason()
            + (state.judge.retryAction() == RetryAction.NONE
                ? ""
                : " Next: " + state.judge.retryAction().wireName()),
        verdictData(state.judge));
  }

  void extraPass() throws IOException {
    switch (state.judge.retryAction()) {
      case FOCUSED_RETRY -> retry(state.judge.retryQuery());
      case RELATED_EXPANSION -> expand(state.judge.expansionLookup());
      case NONE -> {
        if (state.judge.verdict() != Verdict.ENOUGH_EVIDENCE) {
          stages.emit(
              RunStage.RETRY,
              Status.SKIPPED,
              "No retry or expansion: " + state.judge.reason(),
              Map.of());
        }
      }
    }
    if (request.options().includeRelated() && state.pack.hasEvidence()) {
      relatedAsked();
    }
  }

  /**
   * The related notes the request asked for (the Chat's "Related notes"): the link neighbours of
   * the evidence rows, added by the expansion stage after the judge (labelled related, after the
   * question's evidence), never by retrieval. A retry's or the judge's expansion's merge report
   * stays the run's; this one is in the stage's event.
   */
  private void relatedAsked() throws IOException {
    stages.begin(RunStage.EXPANSION, "Related notes asked for", data("asked", true));
    acceptMerge(
        RunStage.EXPANSION,
        "Related notes asked for: ",
        " linked records added (rejected ",
        EvidenceMerge.related(retriever, state.pack, request.options()),
        Map.of());
  }

  void retry(String query) throws IOException {
    stages.begin(RunStage.RETRY, "Focused retry: \"" + query + "\"", data("query", query));
    PackBuilder.Built retryBuilt;
    try {
      Strategy focused = QueryAnalyzer.analyze(query, options.semantic());
      retryBuilt = new PackBuilder(retriever).build(focused, options, PlannerInfo.DETERMINISTIC);
    } catch (InvalidSearchException e) {
      stages.end(
          RunStage.RETRY,
          Status.FAILED,
          "The retry query is not searchable: " + e.getMessage(),
          Map.of());
      return;
    }
    state.queriesRun.add(query.toLowerCase(Locale.ROOT));
    var merged =
        EvidenceMerge.retry(
            state.pack,
            retryBuilt.pack(),
            query,
            state.judge.missingConcepts(),
            budgets.retryAcceptLimit(),
            options);
    acceptMerge(
        RunStage.RETRY,
        "Retry added ",
        " rows (rejected ",
        merged,
        data("variant_keys", retryBuilt.ranking().variants()));
  }

  void expand(String lookup) throws IOException {
    stages.begin(RunStage.EXPANSION, "Following the links of " + lookup, data("lookup", lookup));
    var merged =
        EvidenceMerge.expand(retriever, state.pack, lookup, budgets.relatedLimit(), options);
    acceptMerge(
        RunStage.EXPANSION, "Expansion added ", " related rows (rejected ", merged, Map.of());
  }

  /**
   * Takes a retry or expansion result as the state.pack, judges it again and ends the stage. The
   * run's merge report is its first merge's (a retry's or the judge's expansion, before the related
   * notes asked for); each merge's own is in its stage's event.
   */
  void acceptMerge(
      RunStage stage,
      String added,
      String rejected,
      EvidenceMerge.Merged merged,
      Map<String, Object> extra) {
    var report = merged.report();
    state.pack = merged.pack();
    if (state.merge == null) {
      state.merge = report;
    }
    state.finalJudge = Judge.judge(new Judge.Input(state.pack, state.queriesRun, 0, false));
    stages.endHard(
        stage,
        added
            + report.accepted().size()
            + rejected
            + report.rejected().size()
            + "); verdict now "
            + state.finalJudge.verdict().wireName(),
        merge(
            merge(mergeData(report), data("verdict", state.finalJudge.verdict().wireName())),
            extra));
  }
}
