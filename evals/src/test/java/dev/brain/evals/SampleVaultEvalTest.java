package dev.brain.evals;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatModels;
import dev.brain.models.chat.FakeOllamaServer;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.QueryVariant;
import dev.brain.research.run.ResearchRunner;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.synthesis.Citation;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reviewed research eval suite {@code evals/cases/sample-vault.jsonl} over {@code
 * samples/vault}, run as CI runs it: planner off, extractive synthesizer, default options. A
 * failure prints the readable report. A second run with deliberately broken ranking (evidence in
 * reverse order) must fail named cases with readable reasons.
 */
class SampleVaultEvalTest {

  static final Path SUITE = Path.of("cases", "sample-vault.jsonl");
  private static final Path VAULT = Path.of("..", "samples", "vault").toAbsolutePath().normalize();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  static BrainIndex index;
  static ResearchRunner runner;

  @BeforeAll
  static void indexTheSampleVault() throws IOException {
    // As in the research module's golden test: one embedder call per record and one commit keep
    // the vectors, and so the rank order, independent of the sync's timing.
    index =
        BrainIndex.open(
            IndexConfig.defaults(dir).withEmbedBatchSize(1).withCommitInterval(Duration.ofDays(1)));
    assertThat(index.sync(List.of(VAULT)).failed()).isEmpty();
    runner = new ResearchRunner(new Retriever(index), null);
  }

  @AfterAll
  static void close() throws IOException {
    index.close();
  }

  private static ResearchEvaluation evaluation(ResearchEvaluation.Runner run) {
    return new ResearchEvaluation(run, RunRequest::of, null);
  }

  @Test
  void theReviewedSuitePassesPlannerOff() throws IOException {
    List<ResearchEvalCase> cases = ResearchEvalCase.read(List.of(SUITE));
    if (Boolean.getBoolean("brain.eval.dump")) {
      dump(cases);
    }
    ResearchEvalReport report =
        evaluation(r -> runner.run(r, null)).run(cases, ResearchEvaluation.PlannerMode.BOTH);

    assertThat(cases).hasSizeGreaterThanOrEqualTo(30);
    assertThat(cases).allMatch(ResearchEvalCase::isReviewed);
    assertThat(report.runs()).isEqualTo(cases.size());
    assertThat(report.notes())
        .containsExactly("planner-on runs skipped: no planner model is configured");
    assertThat(report.passed()).as(report.text()).isTrue();
  }

  @Test
  void reversedRankingFailsNamedCasesWithReadableReasons() throws IOException {
    List<ResearchEvalCase> cases = ResearchEvalCase.read(List.of(SUITE));
    ResearchEvalReport report =
        evaluation(r -> reverseEvidence(runner.run(r, null)))
            .run(cases, ResearchEvaluation.PlannerMode.OFF);

    assertThat(report.passed()).isFalse();
    String text = report.text();
    assertThat(text)
        .contains("FAIL backflush-detergent [planner-off]")
        .contains("FAIL rrf-k [planner-off]")
        .containsPattern("expected_top_keys: expected \\S+.* in top \\d+; actual at #\\d+");
    // No-evidence cases have nothing to reorder: they still pass.
    assertThat(text).doesNotContain("FAIL no-evidence-peru");
  }

  @Test
  void aCaseRunsPlannerOnWithAScriptedPlannerModelAndChecksThePlan() throws IOException {
    // The suite's PDF case, with the plan a scripted planner model is expected to contribute.
    String line =
        Files.readAllLines(SUITE).stream()
            .filter(l -> l.contains("\"id\": \"backflush-detergent\""))
            .findFirst()
            .orElseThrow();
    ObjectNode node = (ObjectNode) JSON.readTree(line);
    node.put("planner", "model_assisted");
    node.putArray("query_variants").add("espresso machine cleaning schedule");
    ResearchEvalCase c = ResearchEvalCase.parse(JSON.writeValueAsString(node), "test");
    try (FakeOllamaServer ollama = FakeOllamaServer.start();
        ChatModel planner = ChatModels.open("ollama/planner", ollama.config())) {
      String plan =
          "{\"concepts\":[{\"preferred\":\"cleaning\",\"terms\":[\"maintenance\"]}],"
              + "\"variants\":[{\"query\":\"espresso machine cleaning schedule\","
              + "\"reason\":\"maintenance wording\"}]}";
      ollama.enqueue(FakeOllamaServer.answer("planner", List.of(plan), 100, 40));

      ResearchEvalReport report =
          new ResearchEvaluation(r -> runner.run(r, null), RunRequest::of, planner)
              .run(List.of(c), ResearchEvaluation.PlannerMode.BOTH);

      assertThat(report.results())
          .extracting(ResearchEvalReport.CaseResult::mode)
          .containsExactly("planner-off", "planner-on");
      // Planner-off has no model variant: that assertion fails there and holds planner-on.
      assertThat(report.results().get(0).failures())
          .extracting(ResearchEvalReport.Failure::field)
          .containsExactly("query_variants");
      assertThat(report.results().get(1).passed()).as(report.text()).isTrue();
    }
  }

  static final Path PLANNER_SUITE = Path.of("cases", "sample-vault-planner.jsonl");

  /** A case of a suite file, edited. */
  private static ResearchEvalCase suiteCase(Path file, String id, Consumer<ObjectNode> edit)
      throws IOException {
    String line =
        Files.readAllLines(file).stream()
            .filter(l -> l.contains("\"id\": \"" + id + "\""))
            .findFirst()
            .orElseThrow();
    ObjectNode node = (ObjectNode) JSON.readTree(line);
    edit.accept(node);
    return ResearchEvalCase.parse(JSON.writeValueAsString(node), file + " " + id);
  }

  private static List<String> failedFields(ResearchEvalReport.CaseResult result) {
    return result.failures().stream().map(ResearchEvalReport.Failure::field).toList();
  }

  @Test
  void theFirstRowAssertionsFailWhenTheRankingIsBroken() throws IOException {
    var cases =
        List.of(
            suiteCase(SUITE, "backflush-detergent", n -> {}),
            suiteCase(SUITE, "shoe-retirement", n -> {}));
    ResearchEvalReport report =
        evaluation(r -> reverseEvidence(runner.run(r, null)))
            .run(cases, ResearchEvaluation.PlannerMode.OFF);

    assertThat(failedFields(report.results().get(0)))
        .as(report.text())
        .contains("expect_matched_terms", "forbid_missing_terms");
    assertThat(failedFields(report.results().get(1)))
        .as(report.text())
        .contains("min_retrieval_signals");
    assertThat(report.text())
        .contains("FAIL backflush-detergent [planner-off]")
        .contains(
            "expect_matched_terms: expected backflush matched by the first row; actual matched")
        .contains("forbid_missing_terms: expected detergent not missing from the first row")
        .contains("min_retrieval_signals: expected >= 8 signals on the first row; actual ")
        // The report shows the plan's planner and why the top rows matched.
        .contains("  planner: deterministic\n")
        .containsPattern("  #1 \\S+.*: .*lexical_and_semantic");
    // The JSON report carries the same metadata for every run, failed or not.
    var row = report.results().get(0);
    assertThat(row.planner().planner()).isEqualTo("deterministic");
    assertThat(row.topSignals()).hasSize(ResearchEvaluation.SIGNAL_ROWS);
    assertThat(JSON.valueToTree(row).path("top_signals").get(0).has("matched_terms")).isTrue();
  }

  @Test
  void theAlternativeKeysAndForbiddenCitationsFailWhenTheEvidenceIsWrong() throws IOException {
    // A source-type filter that drops the notes: neither alternative of the group is found.
    ResearchEvalReport pdfOnly =
        new ResearchEvaluation(
                r -> runner.run(r, null),
                q -> {
                  RunRequest base = RunRequest.of(q);
                  return base.withOptions(base.options().withSourceTypes(List.of("pdf")));
                },
                null)
            .run(
                List.of(suiteCase(SUITE, "steam-wand", n -> {})),
                ResearchEvaluation.PlannerMode.OFF);
    assertThat(failedFields(pdfOnly.results().get(0))).contains("expect_any_of");
    assertThat(pdfOnly.text())
        .contains(
            "expect_any_of: expected one of [note:vault/coffee/Milk steaming.md,"
                + " note:vault/coffee/Gaggia Classic Pro.md]; actual none in evidence");

    // A follow-up that loses the correction and answers the earlier question again: the espresso
    // side is quoted, and the case says no.
    ResearchEvalReport pinned =
        new ResearchEvaluation(
                r -> runner.run(r, null),
                q -> RunRequest.of("What grind size did I settle on for the Niche Zero?"),
                null)
            .run(
                List.of(suiteCase(SUITE, "corrective-v60", n -> {})),
                ResearchEvaluation.PlannerMode.OFF);
    assertThat(failedFields(pinned.results().get(0)))
        .as(pinned.text())
        .contains("forbid_citation_source_keys");
    assertThat(pinned.text())
        .contains(
            "forbid_citation_source_keys: expected not note:vault/coffee/Espresso recipe.md;"
                + " actual cited [");
  }

  @Test
  void failuresAreListedInTheCaseFieldOrderWithTheLatencyBudgetLast() throws IOException {
    // One failing field of each assertion family, interleaved in the case's field order.
    ResearchEvalCase c =
        ResearchEvalCase.parse(
            "{\"schema_version\": \"research_eval_case.v1\", \"id\": \"every-family\","
                + " \"question\": \"What grind size did I settle on for the Niche Zero?\","
                + " \"max_latency_ms\": 1, \"min_retrieval_signals\": 99,"
                + " \"expect_any_of\": [[\"note:absent.md\"]],"
                + " \"citation_keys\": [\"note:absent.md\"], \"answer_status\": \"refused\","
                + " \"query_family\": \"comparison\", \"expected_keys\": [\"note:absent.md\"]}",
            "test");
    RunResult run = runner.run(RunRequest.of(c.question()).withTrace(false), null);

    assertThat(CaseAssertions.check(c, run, false, 5))
        .extracting(ResearchEvalReport.Failure::field)
        .containsExactly(
            "expected_keys",
            "query_family",
            "answer_status",
            "citation_keys",
            "expect_any_of",
            "min_retrieval_signals",
            "max_latency_ms");
  }

  @Test
  void thePlannerSuitePassesWithAScriptedPlannerAndEachPlannerAssertionFailsWhenBroken()
      throws IOException {
    List<ResearchEvalCase> cases = ResearchEvalCase.read(List.of(PLANNER_SUITE));
    String plan =
        "{\"concepts\":[{\"preferred\":\"cleaning\",\"terms\":[\"maintenance\"]}],"
            + "\"variants\":[{\"query\":\"espresso machine cleaning schedule\","
            + "\"reason\":\"maintenance wording\"}]}";
    try (FakeOllamaServer ollama = FakeOllamaServer.start();
        ChatModel planner = ChatModels.open("ollama/planner", ollama.config())) {
      // The first case's planner answers; the second's fails (the model is not there).
      ollama.enqueue(FakeOllamaServer.answer("planner", List.of(plan), 100, 40));
      ollama.enqueue(FakeOllamaServer.modelNotFound("planner"));
      ResearchEvalReport report =
          new ResearchEvaluation(r -> runner.run(r, null), RunRequest::of, planner)
              .run(cases, ResearchEvaluation.PlannerMode.ON);
      assertThat(report.passed()).as(report.text()).isTrue();
      assertThat(report.results().get(0).planner().plannerModel()).isEqualTo("ollama/planner");
      assertThat(report.results().get(1).planner().plannerError()).contains("not found");

      // Broken: another planner model, which answers both times, the second time adding an
      // outside answer ("Cafiza", a detergent brand) as a variant.
      String outside =
          "{\"variants\":[{\"query\":\"cafiza backflush detergent\",\"reason\":\"brand\"}]}";
      ollama.enqueue(FakeOllamaServer.answer("other", List.of(plan), 100, 40));
      ollama.enqueue(FakeOllamaServer.answer("other", List.of(outside), 100, 40));
      try (ChatModel other = ChatModels.open("ollama/other", ollama.config())) {
        ResearchEvalReport broken =
            new ResearchEvaluation(r -> runner.run(r, null), RunRequest::of, other)
                .run(
                    List.of(
                        cases.get(0),
                        suiteCase(
                            PLANNER_SUITE,
                            "planner-error-descaling",
                            n -> n.putArray("forbid_query_variants").add("cafiza"))),
                    ResearchEvaluation.PlannerMode.ON);
        assertThat(failedFields(broken.results().get(0)))
            .as(broken.text())
            .containsExactly("planner_model");
        assertThat(failedFields(broken.results().get(1)))
            .as(broken.text())
            .contains("planner", "expect_planner_error_contains", "forbid_query_variants");
        assertThat(broken.text())
            .contains("planner_model: expected ollama/planner; actual ollama/other")
            .contains(
                "expect_planner_error_contains: expected a planner error containing \"not"
                    + " found\"; actual no planner error")
            .contains(
                "forbid_query_variants: expected no variant containing \"cafiza\"; actual"
                    + " variant \"cafiza backflush detergent\"")
            .contains("planner: model_assisted (ollama/other)");
      }
    }
  }

  @Test
  void aCaseThatDisablesThePlannerRunsPlannerOffOnlyAndItsPlanSaysDeterministic()
      throws IOException {
    ResearchEvalCase disabled = suiteCase(PLANNER_SUITE, "planner-disabled-descaling", n -> {});
    String plan =
        "{\"concepts\":[{\"preferred\":\"cleaning\",\"terms\":[\"maintenance\"]}],"
            + "\"variants\":[{\"query\":\"espresso machine cleaning schedule\","
            + "\"reason\":\"maintenance wording\"}]}";
    try (FakeOllamaServer ollama = FakeOllamaServer.start();
        ChatModel planner = ChatModels.open("ollama/planner", ollama.config())) {
      var evaluation = new ResearchEvaluation(r -> runner.run(r, null), RunRequest::of, planner);
      for (var mode :
          List.of(ResearchEvaluation.PlannerMode.ON, ResearchEvaluation.PlannerMode.BOTH)) {
        ResearchEvalReport report = evaluation.run(List.of(disabled), mode);

        assertThat(report.results())
            .as(mode.name())
            .extracting(ResearchEvalReport.CaseResult::mode)
            .containsExactly("planner-off");
        assertThat(report.passed()).as(report.text()).isTrue();
        assertThat(report.results().get(0).planner().planner()).isEqualTo("deterministic");
        assertThat(report.notes())
            .containsExactly("run planner-off only (disable_planner): planner-disabled-descaling");
      }
      assertThat(ollama.requests()).as("the planner model was never asked").isEmpty();

      // The same case without disable_planner runs planner-on: the model plans, and the case's
      // "planner": "deterministic" fails there.
      ollama.enqueue(FakeOllamaServer.answer("planner", List.of(plan), 100, 40));
      ResearchEvalReport enabled =
          evaluation.run(
              List.of(
                  suiteCase(
                      PLANNER_SUITE,
                      "planner-disabled-descaling",
                      n -> n.remove("disable_planner"))),
              ResearchEvaluation.PlannerMode.ON);
      assertThat(enabled.results())
          .extracting(ResearchEvalReport.CaseResult::mode)
          .containsExactly("planner-on");
      assertThat(failedFields(enabled.results().get(0))).as(enabled.text()).contains("planner");
    }
  }

  @Test
  void aPlannerAddingAnOutsideAnswerFailsTheForbiddenVariantAndConcept() throws IOException {
    ResearchEvalCase peru = suiteCase(SUITE, "no-evidence-peru", n -> {});
    try (FakeOllamaServer ollama = FakeOllamaServer.start();
        ChatModel planner = ChatModels.open("ollama/planner", ollama.config())) {
      String plan =
          "{\"concepts\":[{\"preferred\":\"lima\",\"terms\":[\"lima\"]}],"
              + "\"variants\":[{\"query\":\"lima capital of peru\",\"reason\":\"answer\"}]}";
      ollama.enqueue(FakeOllamaServer.answer("planner", List.of(plan), 100, 40));
      ResearchEvalReport report =
          new ResearchEvaluation(r -> runner.run(r, null), RunRequest::of, planner)
              .run(List.of(peru), ResearchEvaluation.PlannerMode.ON);
      assertThat(failedFields(report.results().get(0)))
          .as(report.text())
          .contains("forbid_query_variants", "forbid_concepts");
      assertThat(report.text())
          .contains("FAIL no-evidence-peru [planner-on]")
          .contains("forbid_query_variants: expected no variant containing \"lima\"")
          .contains("forbid_concepts: expected not lima; actual concepts [");
    }
  }

  /** The run with its evidence in reverse order: what a swapped fusion order does to ranking. */
  private static RunResult reverseEvidence(RunResult run) {
    ResearchPack p = run.pack();
    if (p == null) {
      return run;
    }
    List<EvidenceRow> reversed = new ArrayList<>(p.evidence());
    java.util.Collections.reverse(reversed);
    var pack =
        new ResearchPack(
            p.schemaVersion(),
            p.question(),
            p.mode(),
            p.queryPlan(),
            p.coverage(),
            reversed,
            p.exactTagEvidence(),
            p.topicBrief(),
            p.nextSteps());
    return run.withPack(pack);
  }

  /** With -Dbrain.eval.dump=true: what each case's run produced, to review a case's assertions. */
  private static void dump(List<ResearchEvalCase> cases) throws IOException {
    var lines = new ArrayList<String>();
    for (ResearchEvalCase c : cases) {
      var base = RunRequest.of(c.question());
      var request =
          base.withOptions(
                  c.includeRelated() == null
                      ? base.options()
                      : base.options().withIncludeRelated(c.includeRelated()))
              .withContinuity(
                  new dev.brain.research.plan.ChatContinuity(
                      c.priorQuestions(), c.pinnedKeys(), List.of()))
              .withTrace(false);
      RunResult run = runner.run(request, null);
      ObjectNode o = JSON.createObjectNode();
      o.put("id", c.id());
      var plan = run.pack() == null ? null : run.pack().queryPlan();
      if (plan != null) {
        o.put("family", plan.queryFamily().wireName());
        o.putPOJO("terms", plan.queryTerms());
        o.putPOJO("variants", plan.queryVariants().stream().map(QueryVariant::query).toList());
        o.putPOJO("concepts", plan.concepts().stream().map(Concept::key).toList());
        o.putPOJO(
            "tag", run.pack().exactTagEvidence().stream().map(EvidenceRow::sourceKey).toList());
      }
      o.put("stop", run.stopReason().wireName());
      o.put("status", run.synthesis() == null ? null : run.synthesis().answerStatus().wireName());
      o.put("judge", run.judge() == null ? null : run.judge().verdict().wireName());
      o.put("retry", run.judge() == null ? null : run.judge().retryAction().wireName());
      o.putPOJO(
          "cited",
          run.synthesis() == null
              ? List.of()
              : run.synthesis().citations().stream().map(Citation::sourceKey).toList());
      o.putPOJO("evidence", ResearchEvaluation.evidenceKeys(run));
      if (run.pack() != null && !run.pack().evidence().isEmpty()) {
        EvidenceRow first = run.pack().evidence().get(0);
        o.putPOJO("first_signals", first.signals());
        o.putPOJO("first_matched", first.matchedTerms());
        o.putPOJO("first_missing", first.missingTerms());
      }
      o.put("answer", run.synthesis() == null ? null : run.synthesis().answer());
      lines.add(JSON.writeValueAsString(o));
    }
    Files.write(Path.of("target", "eval-dump.jsonl"), lines, StandardCharsets.UTF_8);
  }
}
