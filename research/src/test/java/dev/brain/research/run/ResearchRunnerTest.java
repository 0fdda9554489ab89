package dev.brain.research.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.models.chat.ChatException;
import dev.brain.models.chat.ChatMessage;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatModels;
import dev.brain.models.chat.FakeOllamaServer;
import dev.brain.research.Researcher;
import dev.brain.research.fixtures.RunnerVault;
import dev.brain.research.fixtures.TestChatModel;
import dev.brain.research.pack.EvidenceMerge;
import dev.brain.research.pack.MergeReport;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.ChatContinuity;
import dev.brain.research.plan.QueryPlan;
import dev.brain.research.plan.QueryVariant;
import dev.brain.research.run.JudgeVerdict.RetryAction;
import dev.brain.research.run.ProgressEvent.Status;
import dev.brain.research.synthesis.AnswerStatus;
import dev.brain.research.synthesis.Citation;
import dev.brain.research.synthesis.ResearchResult.Outcome;
import dev.brain.research.trace.TraceStore;
import dev.brain.research.trace.TraceSummary;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.InvalidSearchException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner end to end over the sample vault (indexed once for all runner tests): stages in order,
 * bounds, stop reasons, the judge's extra pass, and the traces on disk.
 */
class ResearchRunnerTest {

  private static final String NICHE = "What grind size did I settle on for the Niche Zero?";
  private static final String NICHE_KEY = "note:vault/coffee/Niche Zero.md";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path data;

  @BeforeAll
  static void indexTheVault() {
    RunnerVault.index();
  }

  private ResearchRunner runner() {
    return RunnerVault.runner(data, List.of());
  }

  /** Collects the events a listener receives. */
  private static class Recorder implements RunListener {
    final List<ProgressEvent> events = new CopyOnWriteArrayList<>();
    final StringBuilder tokens = new StringBuilder();

    @Override
    public void onProgress(ProgressEvent event) {
      events.add(event);
    }

    @Override
    public synchronized void onToken(String token) {
      tokens.append(token);
    }
  }

  @Test
  void aNormalRunGoesThroughEveryStageInOrderAndSavesACompleteTraceByDefault() throws Exception {
    var recorder = new Recorder();

    RunResult run = runner().run(RunRequest.of(NICHE).withSurface("test"), recorder);

    assertThat(run.schemaVersion()).isEqualTo("research_run.v1");
    assertThat(run.stopReason()).isEqualTo(StopReason.ENOUGH_EVIDENCE);
    assertThat(run.status()).isEqualTo(Outcome.OK);
    assertThat(run.normalAnswer()).isTrue();
    assertThat(run.synthesis().citations()).extracting(Citation::sourceKey).contains(NICHE_KEY);
    assertThat(run.verification().passed()).isTrue();
    assertThat(run.pack().evidence().get(0).sourceKey()).isEqualTo(NICHE_KEY);
    // "size" names what is asked for; "15 on the dial" answers it without the word.
    assertThat(run.synthesis().answer()).contains("15 on the dial").doesNotContain("incomplete");
    assertThat(run.inspections()).hasSize(5);
    assertThat(run.pack().evidence().get(0).signals()).contains("inspected");
    assertThat(run.events()).isEqualTo(recorder.events);
    // What a person reads: stage texts and data keys are words, never code names.
    for (ProgressEvent event : run.events()) {
      assertThat(event.message()).doesNotContain("state.");
      assertThat(event.data().keySet()).noneMatch(key -> key.contains("."));
    }
    assertThat(stages(run.events(), Status.STARTED))
        .containsExactly(
            RunStage.RUN,
            RunStage.PLANNING,
            RunStage.RETRIEVAL,
            RunStage.INSPECTION,
            RunStage.JUDGE,
            RunStage.PREPARATION,
            RunStage.SYNTHESIS,
            RunStage.VERIFICATION,
            RunStage.TRACE);
    assertThat(run.events().get(run.events().size() - 1).stage()).isEqualTo(RunStage.RUN);
    assertThat(run.events().get(run.events().size() - 1).data())
        .containsEntry("stop_reason", "enough_evidence");
    assertThat(run.metrics().steps()).isEqualTo(7);
    assertThat(run.metrics().candidatesBeforeDedupe())
        .isGreaterThanOrEqualTo(run.metrics().candidatesAfterDedupe());
    assertThat(run.metrics().candidatesAfterDedupe()).isGreaterThan(0);
    assertThat(run.metrics().modelCalls()).isZero();
    assertThat(run.timings()).containsKeys("planning", "retrieval", "synthesis", "trace");

    Path dir = Path.of(run.tracePath());
    assertThat(dir.getParent()).isEqualTo(data.resolve("research-runs"));
    assertThat(dir.getFileName().toString()).isEqualTo(run.runId()).matches(RunId::matches);
    assertThat(dir.resolve(".complete")).isRegularFile();
    assertThat(dir.resolve("run.md")).isRegularFile();
    assertThat(dir.resolve("synthesis-input.md")).isRegularFile();
    assertThat(dir.resolve("planner-input.md")).doesNotExist();
    assertThat(Files.getPosixFilePermissions(dir))
        .isEqualTo(PosixFilePermissions.fromString("rwx------"));
    try (Stream<Path> files = Files.list(dir)) {
      files.forEach(
          f ->
              assertThat(uncheckedPermissions(f))
                  .isEqualTo(PosixFilePermissions.fromString("rw-------")));
    }
    JsonNode trace = JSON.readTree(dir.resolve("run.json").toFile());
    assertThat(trace.path("schema_version").asText()).isEqualTo("research_trace.v1");
    assertThat(trace.path("stop_reason").asText()).isEqualTo("enough_evidence");
    assertThat(trace.path("surface").asText()).isEqualTo("test");
    assertThat(trace.path("pack").path("schema_version").asText()).isEqualTo("research_pack.v1");
    assertThat(trace.path("synthesis").path("schema_version").asText())
        .isEqualTo("research_synthesis.v1");
    assertThat(trace.path("prepared_synthesis").path("truncation").isObject()).isTrue();
    assertThat(trace.path("metrics").path("variant_count").asInt()).isGreaterThan(0);
    long bytes = 0;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        bytes += Files.size(f);
      }
    }
    assertThat(trace.path("metrics").path("artifact_bytes").asLong()).isEqualTo(bytes);
    assertThat(run.metrics().artifactBytes()).isEqualTo(bytes);
    assertThat(Files.readString(dir.resolve("synthesis-input.md")))
        .contains("# Question", "[" + NICHE_KEY + "]");
  }

  @Test
  void relatedRowsComeInWhenTheRequestAsksForThem() throws Exception {
    var plain = runner().run(RunRequest.of(NICHE).withTrace(false), null);
    var related =
        runner()
            .run(
                RunRequest.of(NICHE)
                    .withOptions(ResearchOptions.defaults().withIncludeRelated(true))
                    .withTrace(false),
                null);
    assertThat(plain.pack().evidence()).noneMatch(row -> row.relatedTo() != null);
    assertThat(related.pack().evidence()).anyMatch(row -> row.relatedTo() != null);
    assertThat(related.normalAnswer()).isTrue();
    // Never at retrieval: the expansion stage adds them after the judge, after the question's own
    // evidence, labelled related.
    var retrieval =
        related.events().stream()
            .filter(e -> e.stage() == RunStage.RETRIEVAL && e.status() == Status.COMPLETED)
            .findFirst()
            .orElseThrow();
    int retrieved = ((java.util.List<?>) retrieval.data().get("evidence_keys")).size();
    var evidence = related.pack().evidence();
    assertThat(evidence.subList(0, retrieved)).noneMatch(row -> row.relatedTo() != null);
    assertThat(evidence.subList(retrieved, evidence.size()))
        .isNotEmpty()
        .allMatch(row -> row.relatedTo() != null);
    assertThat(related.events())
        .anyMatch(
            e ->
                e.stage() == RunStage.EXPANSION
                    && e.message().startsWith("Related notes asked for"));
  }

  @Test
  void theLongestQuestionAcceptedWritesATraceThatReadsBackAndALongerOneIsRefused()
      throws Exception {
    // Spaced words (the question once became a JSON key of the trace) and one very long word.
    String words = NICHE + " " + "lorem ipsum ".repeat(200);
    String question = words + "x".repeat(ResearchOptions.MAX_QUESTION_CHARS - words.length());

    RunResult run = runner().run(RunRequest.of(question), null);

    Path dir = Path.of(run.tracePath());
    assertThat(new TraceStore(data).readJson(dir).path("question").asText())
        .hasSize(ResearchOptions.MAX_QUESTION_CHARS);
    assertThat(new TraceStore(data).list()).extracting(TraceSummary::error).containsOnlyNulls();
    assertThatThrownBy(() -> RunRequest.of(question + "x"))
        .isInstanceOf(InvalidSearchException.class)
        .hasMessageContaining("at most 4000 are accepted");
  }

  @Test
  void theTraceKeepsTheEventsInOrderAndReadsAsADocument() throws Exception {
    RunResult run = runner().run(RunRequest.of(NICHE), null);
    Path dir = Path.of(run.tracePath());

    JsonNode trace = JSON.readTree(dir.resolve("run.json").toFile());
    // The run's own fields inline; the trace's version, not the run's; no path to itself.
    assertThat(trace.path("schema_version").asText()).isEqualTo("research_trace.v1");
    assertThat(trace.path("run_id").asText()).isEqualTo(run.runId());
    assertThat(trace.path("stop_reason").asText()).isEqualTo("enough_evidence");
    assertThat(trace.path("metrics").path("artifact_bytes").asLong()).isPositive();
    assertThat(trace.has("trace_path")).isFalse();
    assertThat(trace.has("run")).isFalse();
    JsonNode events = trace.path("events");
    var seqs = new ArrayList<Integer>();
    var order = new ArrayList<String>();
    events.forEach(
        e -> {
          seqs.add(e.path("seq").asInt());
          order.add(e.path("stage").asText() + ":" + e.path("status").asText());
        });
    assertThat(seqs).isSorted().doesNotHaveDuplicates().startsWith(1);
    assertThat(order)
        .containsSubsequence(
            "run:started",
            "planning:started",
            "planning:completed",
            "retrieval:started",
            "retrieval:completed",
            "inspection:started",
            "inspection:completed",
            "judge:started",
            "judge:completed",
            "preparation:started",
            "preparation:completed",
            "synthesis:started",
            "synthesis:completed",
            "verification:started",
            "verification:completed",
            "trace:started");
    assertThat(order.get(order.size() - 1)).isEqualTo("trace:started");

    String md = Files.readString(dir.resolve("run.md"));
    assertThat(md)
        .startsWith("# Research run " + run.runId())
        .contains(
            "> " + NICHE,
            "**Stop reason:** `enough_evidence`",
            "## Answer",
            "## Timeline",
            "| 1 |",
            "## Judge",
            "## Evidence",
            "`" + NICHE_KEY + "`",
            "## Synthesis input",
            "## Verification",
            "## Metrics");
    assertThat(md.indexOf("## Answer")).isLessThan(md.indexOf("## Timeline"));
  }

  @Test
  void aWeakFirstPassGetsOneFocusedRetryWhoseMergeIsRecorded() throws Exception {
    RunResult run =
        runner().run(RunRequest.of("plantar fasciitis stretches and shoes mileage"), null);

    assertThat(run.judge().retryAction()).isEqualTo(RetryAction.FOCUSED_RETRY);
    assertThat(run.judge().missingConcepts()).isNotEmpty();
    MergeReport merge = run.merge();
    assertThat(merge.action()).isEqualTo(MergeReport.FOCUSED_RETRY);
    assertThat(merge.query()).isEqualTo(run.judge().retryQuery());
    assertThat(merge.preserved()).isNotEmpty();
    assertThat(keys(run.pack().evidence())).containsAll(merge.preserved());
    assertThat(keys(run.pack().evidence())).containsAll(merge.accepted());
    assertThat(merge.rejected())
        .isNotEmpty()
        .allSatisfy(r -> assertThat(r.reason()).isNotBlank())
        .allSatisfy(r -> assertThat(merge.accepted()).doesNotContain(r.sourceKey()));
    assertThat(run.pack().queryPlan().queryVariants())
        .extracting(QueryVariant::query)
        .contains(merge.query());
    assertThat(run.finalJudge().retryAction()).isEqualTo(RetryAction.NONE);
    assertThat(stages(run.events(), Status.STARTED)).containsOnlyOnce(RunStage.RETRY);
    assertThat(stages(run.events(), Status.STARTED)).doesNotContain(RunStage.EXPANSION);
    assertThat(run.stopReason())
        .isIn(StopReason.ENOUGH_EVIDENCE, StopReason.WEAK_EVIDENCE_BUDGET_EXHAUSTED);
    assertThat(run.synthesis()).isNotNull();
    JsonNode trace = JSON.readTree(Path.of(run.tracePath(), "run.json").toFile());
    assertThat(trace.path("merge").path("preserved").size()).isEqualTo(merge.preserved().size());
    assertThat(trace.path("merge").path("rejected").get(0).path("reason").asText()).isNotBlank();
  }

  @Test
  void aRelatedExpansionHappensOnceFromTheStrongestRowAndStaysWithinItsRowBudget()
      throws Exception {
    var request =
        RunRequest.of("Gaggia Classic Pro thermometer calibration")
            .withBudgets(RunBudgets.defaults().withAddedRowLimits(1, 4));

    RunResult run = runner().run(request, null);

    assertThat(run.judge().retryAction()).isEqualTo(RetryAction.RELATED_EXPANSION);
    assertThat(run.judge().expansionLookup()).isEqualTo(run.pack().evidence().get(0).sourceKey());
    MergeReport merge = run.merge();
    assertThat(merge.action()).isEqualTo(MergeReport.RELATED_EXPANSION);
    assertThat(merge.lookup()).isEqualTo(run.judge().expansionLookup());
    assertThat(merge.accepted()).hasSizeLessThanOrEqualTo(1);
    assertThat(stages(run.events(), Status.STARTED)).containsOnlyOnce(RunStage.EXPANSION);
    assertThat(stages(run.events(), Status.STARTED)).doesNotContain(RunStage.RETRY);
    assertThat(run.finalJudge().retryAction()).isEqualTo(RetryAction.NONE);
    assertThat(run.pack().evidence().stream().filter(EvidenceRow::isRelated))
        .allSatisfy(r -> assertThat(r.relatedTo()).isEqualTo(merge.lookup()));
  }

  @Test
  void anExpansionAddsAtMostItsLimitAndRejectsTheRestWithAReason() throws IOException {
    var researcher = new Researcher(RunnerVault.retriever());
    var options = ResearchOptions.defaults().withLimit(1);
    ResearchPack pack = researcher.pack("espresso", options);
    assertThat(pack.evidence()).hasSize(1);

    var merged =
        EvidenceMerge.expand(
            RunnerVault.retriever(), pack, "note:vault/coffee/Coffee.md", 2, options);

    List<EvidenceRow> related =
        merged.pack().evidence().stream().filter(EvidenceRow::isRelated).toList();
    assertThat(related).hasSize(2);
    assertThat(merged.report().accepted()).hasSize(2).isEqualTo(keys(related));
    assertThat(merged.report().rejected())
        .extracting(MergeReport.Rejected::reason)
        .contains("over the expansion's limit of 2 rows");
    assertThat(related)
        .allSatisfy(
            r -> {
              assertThat(r.evidenceRole()).isEqualTo("related");
              assertThat(r.relatedTo()).isEqualTo("note:vault/coffee/Coffee.md");
              assertThat(r.signals()).contains("related_expansion", "concepts:1/1");
            });
    assertThat(merged.pack().evidence()).extracting(EvidenceRow::rank).containsExactly(1, 2, 3);
    assertThat(merged.pack().coverage().evidenceCount()).isEqualTo(3);
    assertThat(merged.pack().queryPlan().retrievalLanes()).contains("related");
  }

  @Test
  void noEvidenceStillAttemptsSynthesisAndNeverAnswersNormally() throws Exception {
    var model = TestChatModel.answering("made-up answer [note:vault/coffee/Niche Zero.md]");

    RunResult run =
        runner().run(RunRequest.of("quantum chromodynamics lattice").withModel(model), null);

    assertThat(run.stopReason()).isEqualTo(StopReason.NO_EVIDENCE);
    assertThat(run.status()).isEqualTo(Outcome.NO_EVIDENCE);
    assertThat(run.normalAnswer()).isFalse();
    assertThat(run.judge().verdict()).isEqualTo(JudgeVerdict.Verdict.NO_EVIDENCE);
    assertThat(run.pack().evidence()).isEmpty();
    assertThat(stages(run.events(), Status.STARTED)).contains(RunStage.SYNTHESIS);
    assertThat(run.synthesis().answerStatus()).isEqualTo(AnswerStatus.NO_EVIDENCE);
    assertThat(run.synthesis().answer()).doesNotContain("made-up");
    assertThat(model.requests).isEmpty(); // an empty pack is never sent to a model
    assertThat(run.verification().passed()).isTrue();
  }

  @Test
  void theStepBudgetStopsTheRunBeforeTheNextStageAndKeepsThePartialTrace() throws Exception {
    var request = RunRequest.of(NICHE).withBudgets(RunBudgets.defaults().withMaxSteps(3));

    RunResult run = runner().run(request, null);

    assertThat(run.stopReason()).isEqualTo(StopReason.MAX_STEPS_REACHED);
    assertThat(run.failure().code()).isEqualTo(RunFailure.MAX_STEPS);
    assertThat(run.failure().stage()).isEqualTo(RunStage.JUDGE);
    assertThat(run.metrics().steps()).isEqualTo(3);
    assertThat(run.synthesis()).isNull();
    assertThat(run.status()).isEqualTo(Outcome.ERROR);
    assertThat(run.normalAnswer()).isFalse();
    JsonNode trace = JSON.readTree(Path.of(run.tracePath(), "run.json").toFile());
    assertThat(trace.path("stop_reason").asText()).isEqualTo("max_steps_reached");
    assertThat(trace.path("pack").isObject()).isTrue();
    assertThat(trace.path("synthesis").isNull()).isTrue();
    assertThat(Path.of(run.tracePath(), "synthesis-input.md")).doesNotExist();
  }

  @Test
  void aSlowModelHittingTheDeadlineStopsTheRunTimeoutExceededWithAPartialTraceOnDisk()
      throws Exception {
    try (FakeOllamaServer ollama = FakeOllamaServer.start();
        ChatModel model = ChatModels.open("ollama/slow", ollama.config())) {
      // A model that streams one word every 200 ms for 80 s; the deadline leaves retrieval ample
      // time even on a loaded machine, and cuts the answer long before the model would finish.
      var slow = FakeOllamaServer.stream();
      for (int i = 0; i < 400; i++) {
        slow =
            slow.write(FakeOllamaServer.tokenLine("slow", "word ")).pause(Duration.ofMillis(200));
      }
      ollama.enqueue(slow);
      var request =
          RunRequest.of(NICHE)
              .withModel(model)
              .withBudgets(RunBudgets.defaults().withDeadline(Duration.ofSeconds(12)));
      var recorder = new Recorder();
      long start = System.nanoTime();

      RunResult run = runner().run(request, recorder);

      long tookMs = (System.nanoTime() - start) / 1_000_000;
      assertThat(tookMs).isLessThan(40_000);
      assertThat(run.stopReason()).isEqualTo(StopReason.TIMEOUT_EXCEEDED);
      assertThat(run.failure().stage()).isEqualTo(RunStage.SYNTHESIS);
      assertThat(run.failure().code()).isEqualTo(RunFailure.DEADLINE_EXCEEDED);
      assertThat(run.normalAnswer()).isFalse();
      assertThat(run.synthesis().answerStatus()).isEqualTo(AnswerStatus.ERROR);
      assertThat(recorder.tokens.toString()).startsWith("word ").matches("(word )+");
      assertThat(run.metrics().tokensStreamed()).isLessThan(200);
      assertThat(ollama.awaitClientDisconnect(Duration.ofSeconds(5))).isTrue();
      assertThat(Thread.currentThread().isInterrupted()).isFalse();

      Path dir = Path.of(run.tracePath());
      assertThat(dir.resolve(".complete")).isRegularFile();
      JsonNode trace = JSON.readTree(dir.resolve("run.json").toFile());
      assertThat(trace.path("stop_reason").asText()).isEqualTo("timeout_exceeded");
      assertThat(trace.path("failure").path("code").asText()).isEqualTo("deadline_exceeded");
      assertThat(trace.path("verification").isNull()).isTrue();
      assertThat(trace.path("synthesis").path("answer_status").asText()).isEqualTo("error");
      assertThat(Files.readString(dir.resolve("run.md"))).contains("timeout_exceeded");
    }
  }

  @Test
  void aSlowPlannerOverItsBudgetFallsBackToTheDeterministicPlan() throws Exception {
    var planner = TestChatModel.slow(Duration.ofSeconds(10), "{}");
    var request =
        RunRequest.of(NICHE)
            .withPlanner(planner)
            .withBudgets(
                RunBudgets.defaults()
                    .withStageBudget(RunStage.PLANNING, Duration.ofMillis(200))
                    .withPlannerPolicy(PlannerPolicy.ALWAYS));

    RunResult run = runner().run(request, null);

    assertThat(run.stopReason()).isEqualTo(StopReason.PLANNER_FAILED_DETERMINISTIC_USED);
    assertThat(run.pack().queryPlan().planner()).isEqualTo(QueryPlan.DETERMINISTIC);
    assertThat(run.pack().queryPlan().plannerError()).startsWith("timeout");
    assertThat(run.metrics().plannerFallback()).isTrue();
    assertThat(run.metrics().modelCalls()).isEqualTo(1);
    assertThat(run.metrics().plannerChars()).isPositive();
    assertThat(run.synthesis().answerStatus().isAnswer()).isTrue();
    assertThat(planner.requests.get(0).timeout()).isEqualTo(Duration.ofMillis(200));
    assertThat(Path.of(run.tracePath(), "planner-input.md")).content().contains("## System");
  }

  @Test
  void aModelPlannerThatAnswersWritesItsInputAndOutputSidecars() throws Exception {
    var planner =
        TestChatModel.answering(
            "{\"concepts\": [{\"preferred\": \"grinder setting\", \"terms\": [\"grind\"]}],"
                + " \"variants\": [{\"query\": \"niche zero espresso grind setting\","
                + " \"reason\": \"setting\"}]}");

    RunResult run =
        runner()
            .run(
                RunRequest.of(NICHE)
                    .withPlanner(planner)
                    .withBudgets(RunBudgets.defaults().withPlannerPolicy(PlannerPolicy.ALWAYS)),
                null);

    assertThat(run.pack().queryPlan().planner()).isEqualTo(QueryPlan.MODEL_ASSISTED);
    assertThat(Path.of(run.tracePath(), "planner-output.json")).content().contains("variants");
    assertThat(Path.of(run.tracePath(), "planner-input.md")).content().contains(NICHE);
    JsonNode trace = JSON.readTree(Path.of(run.tracePath(), "run.json").toFile());
    assertThat(trace.path("artifacts").path("planner_output").asText())
        .isEqualTo("planner-output.json");
    assertThat(trace.path("settings").path("planner_model").asText()).isEqualTo("ollama/test");
  }

  @Test
  void aParagraphWithoutACitationIsAWarningThatLeavesTheVerdictAlone() throws Exception {
    var model =
        TestChatModel.answering(
            "The Niche Zero is set to 15 [note:vault/coffee/Niche Zero.md].\n\n"
                + "Most grinders need a few shots to settle after a big change.");

    RunResult run = runner().run(RunRequest.of(NICHE).withModel(model), null);

    assertThat(run.verification().passed()).isTrue();
    assertThat(run.status()).isEqualTo(Outcome.OK);
    var warning = run.verification().warnings().getFirst();
    assertThat(run.verification().warnings()).hasSize(1);
    assertThat(warning.paragraph()).isEqualTo(2);
    assertThat(warning.excerpt()).startsWith("Most grinders");
    assertThat(run.events())
        .anyMatch(
            e ->
                e.stage() == RunStage.VERIFICATION
                    && e.message()
                        .equals(
                            "Every hard gate passed; soft gates: paragraph 2 states a fact"
                                + " without citing a record"));
    assertThat(Path.of(run.tracePath(), "run.md"))
        .content()
        .contains("Soft gates (advisory; the answer stands):", "Most grinders");
    JsonNode trace = JSON.readTree(Path.of(run.tracePath(), "run.json").toFile());
    assertThat(trace.path("verification").path("warnings").get(0).path("excerpt").asText())
        .startsWith("Most grinders");
    // The extractive answer quotes under a citing lead-in: nothing to warn about.
    assertThat(runner().run(RunRequest.of(NICHE), null).verification().warnings()).isEmpty();
  }

  @Test
  void anAnswerCitingAKeyOutsideThePackFailsVerificationAndIsNeverANormalAnswer() throws Exception {
    var model =
        TestChatModel.answering("The grind is 15 [note:vault/coffee/Imaginary grinder.md].");

    RunResult run = runner().run(RunRequest.of(NICHE).withModel(model), null);

    assertThat(run.stopReason()).isEqualTo(StopReason.VERIFICATION_FAILED);
    assertThat(run.status()).isEqualTo(Outcome.VERIFICATION_FAILED);
    assertThat(run.normalAnswer()).isFalse();
    assertThat(run.failure().code()).isEqualTo(RunFailure.VERIFICATION_FAILED);
    assertThat(run.verification().reasons())
        .anySatisfy(r -> assertThat(r).contains("note:vault/coffee/Imaginary grinder.md"));
    assertThat(run.events())
        .anySatisfy(
            e -> {
              assertThat(e.stage()).isEqualTo(RunStage.VERIFICATION);
              assertThat(e.status()).isEqualTo(Status.FAILED);
            });
    assertThat(Files.readString(Path.of(run.tracePath(), "run.md")))
        .contains("Rejected by verification");
  }

  @Test
  void anUnreachableModelEndsSynthesisUnavailableAndAFailingOneSynthesisFailed() throws Exception {
    RunResult unavailable =
        runner()
            .run(
                RunRequest.of(NICHE)
                    .withModel(
                        TestChatModel.failing(
                            ChatException.Kind.UNAVAILABLE, "connection refused")),
                null);
    RunResult failed =
        runner()
            .run(
                RunRequest.of(NICHE)
                    .withModel(TestChatModel.failing(ChatException.Kind.PROTOCOL, "HTTP 500")),
                null);

    assertThat(unavailable.stopReason()).isEqualTo(StopReason.SYNTHESIS_UNAVAILABLE);
    assertThat(unavailable.status()).isEqualTo(Outcome.UNAVAILABLE);
    assertThat(unavailable.failure().code()).isEqualTo(RunFailure.MODEL_UNAVAILABLE);
    assertThat(unavailable.pack().hasEvidence()).isTrue();
    assertThat(failed.stopReason()).isEqualTo(StopReason.SYNTHESIS_FAILED);
    assertThat(failed.failure().code()).isEqualTo(RunFailure.MODEL_ERROR);
  }

  @Test
  void modelTokensStreamToTheListenerAndAreCounted() throws Exception {
    var model = TestChatModel.answering("Grind 15 on the Niche Zero [" + NICHE_KEY + "].");
    var recorder = new Recorder();

    RunResult run = runner().run(RunRequest.of(NICHE).withModel(model), recorder);

    assertThat(recorder.tokens.toString()).isEqualTo(run.synthesis().answer());
    assertThat(run.metrics().tokensStreamed()).isEqualTo(8); // split after each space
    assertThat(run.metrics().synthesisChars()).isPositive();
    assertThat(run.stopReason()).isEqualTo(StopReason.ENOUGH_EVIDENCE);
  }

  @Test
  void noTraceWritesNothingToTheDataDirectory() throws Exception {
    var recorder = new Recorder();

    RunResult run = runner().run(RunRequest.of(NICHE).withTrace(false), recorder);

    assertThat(run.tracePath()).isNull();
    assertThat(run.metrics().artifactBytes()).isZero();
    assertThat(data.resolve("research-runs")).doesNotExist();
    assertThat(recorder.events)
        .anySatisfy(
            e -> {
              assertThat(e.stage()).isEqualTo(RunStage.TRACE);
              assertThat(e.status()).isEqualTo(Status.SKIPPED);
            });
  }

  @Test
  void twentyConcurrentRunsWriteTwentyCompleteDistinctTraceDirectories() throws Exception {
    List<String> questions = probeQuestions();
    ResearchRunner runner = runner();
    var pool = Executors.newFixedThreadPool(20);
    try {
      var futures = new ArrayList<Future<RunResult>>();
      for (int i = 0; i < 20; i++) {
        String q = questions.get(i % questions.size());
        futures.add(pool.submit(() -> runner.run(RunRequest.of(q), null)));
      }
      var ids = new HashSet<String>();
      for (Future<RunResult> f : futures) {
        RunResult run = f.get();
        ids.add(run.runId());
        assertThat(Path.of(run.tracePath(), ".complete")).isRegularFile();
      }
      assertThat(ids).hasSize(20);
    } finally {
      pool.shutdownNow();
    }
    List<TraceSummary> listed = new TraceStore(data).list();
    assertThat(listed).hasSize(20);
    assertThat(listed).extracting(TraceSummary::error).containsOnlyNulls();
    try (Stream<Path> dirs = Files.list(data.resolve("research-runs"))) {
      assertThat(dirs.map(d -> d.getFileName().toString()))
          .hasSize(20)
          .allSatisfy(n -> assertThat(n).matches(RunId::matches));
    }
    for (TraceSummary s : listed) {
      assertThat(s.path()).doesNotStartWith("/");
      assertThat(
              JSON.readTree(data.resolve(s.path()).resolve("run.json").toFile())
                  .path("run_id")
                  .asText())
          .isEqualTo(s.runId());
    }
  }

  @Test
  void interruptingTheRunCancelsTheModelCallAndStillSavesItsTrace() throws Exception {
    var model = TestChatModel.slow(Duration.ofSeconds(30), "never");
    var request = RunRequest.of(NICHE).withModel(model);
    Thread runThread = Thread.currentThread();
    var recorder =
        new Recorder() {
          @Override
          public void onProgress(ProgressEvent event) {
            super.onProgress(event);
            if (event.stage() == RunStage.SYNTHESIS && event.status() == Status.STARTED) {
              Thread.ofVirtual()
                  .start(
                      () -> {
                        sleep(300);
                        runThread.interrupt();
                      });
            }
          }
        };

    RunResult run = runner().run(request, recorder);

    assertThat(Thread.interrupted()).isTrue(); // restored for the caller, cleared here
    assertThat(run.stopReason()).isEqualTo(StopReason.CANCELLED);
    assertThat(run.failure().code()).isEqualTo(RunFailure.CANCELLED);
    assertThat(run.failure().stage()).isEqualTo(RunStage.SYNTHESIS);
    assertThat(Path.of(run.tracePath(), ".complete")).isRegularFile();
    assertThat(run.metrics().durationMs()).isLessThan(10_000);
  }

  @Test
  void aPriorAnswerNeverReachesTheNextTurnsEvidenceOrSynthesisInput() throws Exception {
    String marker = "PRIOR-ANSWER-7F3A";
    var model =
        TestChatModel.answering(
            request -> marker + " you settled on grind 15 [" + NICHE_KEY + "].");
    RunResult first = runner().run(RunRequest.of(NICHE).withModel(model), null);
    assertThat(first.synthesis().answer()).contains(marker);

    String followUp = "and for the V60 recipe?";
    String chatShaped =
        "Current question: "
            + followUp
            + "\nRecent user questions:\n- "
            + NICHE
            + "\nPrevious answer: "
            + first.synthesis().answer();
    var continuity =
        new ChatContinuity(
            List.of(NICHE),
            List.of(NICHE_KEY),
            first.synthesis().citations().stream().map(Citation::sourceKey).toList());
    RunResult second =
        runner().run(RunRequest.of(chatShaped).withModel(model).withContinuity(continuity), null);

    assertThat(second.retrievalQuestion())
        .contains(followUp, NICHE)
        .doesNotContain(marker, "Previous answer");
    String input = Files.readString(Path.of(second.tracePath(), "synthesis-input.md"));
    assertThat(input).doesNotContain(marker).contains(NICHE_KEY);
    assertThat(second.preparedSynthesis().input()).doesNotContain(marker);
    assertThat(second.pack().evidence())
        .allSatisfy(r -> assertThat(String.valueOf(r.excerpt())).doesNotContain(marker));
    ChatMessage sent = model.requests.get(1).messages().get(1);
    assertThat(sent.content()).doesNotContain(marker);
    assertThat(second.pinned().accepted()).isEmpty(); // pinned key was already found
    assertThat(second.pinned().rejected())
        .extracting(MergeReport.Rejected::sourceKey)
        .containsExactly(NICHE_KEY);
    JsonNode continuityJson =
        JSON.readTree(Path.of(second.tracePath(), "run.json").toFile()).path("continuity");
    assertThat(continuityJson.path("original_question").asText()).isEqualTo(chatShaped);
    assertThat(continuityJson.path("retrieval_question").asText())
        .isEqualTo(second.retrievalQuestion());
    assertThat(continuityJson.path("prior_questions").get(0).asText()).isEqualTo(NICHE);
    assertThat(continuityJson.path("pinned_evidence_keys").get(0).asText()).isEqualTo(NICHE_KEY);
    assertThat(continuityJson.path("prior_evidence_keys").get(0).asText()).isEqualTo(NICHE_KEY);
  }

  @Test
  void pinnedRecordsJoinTheEvidenceBeforeSynthesis() throws Exception {
    String pinned = "note:vault/garden/Compost.md";
    var continuity =
        new ChatContinuity(List.of(), List.of(pinned, "note:vault/missing.md"), List.of());

    RunResult run = runner().run(RunRequest.of(NICHE).withContinuity(continuity), null);

    assertThat(run.pinned().accepted()).containsExactly(pinned);
    assertThat(run.pinned().rejected())
        .extracting(MergeReport.Rejected::reason)
        .containsExactly("not in the index");
    assertThat(run.pack().find(pinned))
        .get()
        .satisfies(
            r -> {
              assertThat(r.signals()).contains("pinned");
              assertThat(r.relationship()).isEqualTo("pinned"); // the Chat's "pinned by you"
              assertThat(r.isRelated()).isFalse();
            });
    assertThat(run.preparedSynthesis().citableSources())
        .extracting(Citation::sourceKey)
        .contains(pinned);
  }

  @Test
  void aQuestionWithoutSearchableWordsFailsBeforeAnyTrace() {
    assertThatThrownBy(() -> runner().run(RunRequest.of("the of and"), null))
        .isInstanceOf(InvalidSearchException.class);
    assertThatThrownBy(() -> RunRequest.of("  ")).isInstanceOf(InvalidSearchException.class);
    assertThat(data.resolve("research-runs")).doesNotExist();
  }

  // ---- helpers

  private static List<RunStage> stages(List<ProgressEvent> events, Status status) {
    return events.stream().filter(e -> e.status() == status).map(ProgressEvent::stage).toList();
  }

  private static List<String> keys(List<EvidenceRow> rows) {
    return rows.stream().map(EvidenceRow::sourceKey).toList();
  }

  private static List<String> probeQuestions() throws IOException {
    var out = new ArrayList<String>();
    for (String line :
        Files.readAllLines(Path.of("..", "samples", "probes.jsonl"), StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        out.add(JSON.readTree(line).path("question").asText());
      }
    }
    return out;
  }

  private static Object uncheckedPermissions(Path f) {
    try {
      return Files.getPosixFilePermissions(f);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
