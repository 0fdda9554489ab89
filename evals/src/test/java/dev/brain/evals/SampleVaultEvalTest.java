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
    return new RunResult(
        run.schemaVersion(),
        run.runId(),
        run.question(),
        run.retrievalQuestion(),
        run.stopReason(),
        run.status(),
        run.synthesis(),
        run.verification(),
        run.failure(),
        run.judge(),
        run.finalJudge(),
        run.merge(),
        run.pinned(),
        run.inspections(),
        run.timings(),
        run.metrics(),
        run.events(),
        run.tracePath(),
        run.traceError(),
        pack,
        run.preparedSynthesis());
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
      o.put("answer", run.synthesis() == null ? null : run.synthesis().answer());
      lines.add(JSON.writeValueAsString(o));
    }
    Files.write(Path.of("target", "eval-dump.jsonl"), lines, StandardCharsets.UTF_8);
  }
}
