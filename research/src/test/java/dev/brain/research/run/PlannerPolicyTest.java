package dev.brain.research.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.research.fixtures.RunnerVault;
import dev.brain.research.fixtures.TestChatModel;
import dev.brain.research.plan.ChatContinuity;
import dev.brain.research.plan.ConversationTurn;
import dev.brain.research.plan.QueryPlan;
import dev.brain.research.run.ProgressEvent.Status;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.InvalidSearchException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: a model planner is asked only when the deterministic plan's evidence is weak ({@code
 * auto}, the default), or on every run ({@code always}); the decision and its reason are in the
 * planning stage's events and in the trace.
 */
class PlannerPolicyTest {

  private static final String NICHE = "What grind size did I settle on for the Niche Zero?";
  private static final String ABSENT = "What grind size did I use on the Comandante hand grinder?";
  private static final String PLAN =
      "{\"concepts\": [{\"preferred\": \"grind\", \"terms\": [\"grind\"]}],"
          + " \"variants\": [{\"query\": \"grind setting\", \"reason\": \"setting\"}]}";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path data;

  @BeforeAll
  static void indexTheVault() {
    RunnerVault.index();
  }

  private ResearchRunner runner() {
    return RunnerVault.runner(data, List.of());
  }

  /** The data of the last planning event with a policy decision. */
  private static Map<String, Object> decision(RunResult run) {
    return run.events().stream()
        .filter(e -> e.stage() == RunStage.PLANNING && e.data().containsKey("planner_decision"))
        .reduce((a, b) -> b)
        .orElseThrow()
        .data();
  }

  @Test
  void strongDeterministicEvidenceSkipsTheModelAndSaysWhy() throws Exception {
    var planner = TestChatModel.answering(PLAN);

    RunResult run = runner().run(RunRequest.of(NICHE).withPlanner(planner), null);

    assertThat(planner.requests).isEmpty();
    assertThat(run.metrics().modelCalls()).isZero();
    assertThat(run.pack().queryPlan().planner()).isEqualTo(QueryPlan.DETERMINISTIC);
    assertThat(run.stopReason()).isEqualTo(StopReason.ENOUGH_EVIDENCE);
    assertThat(decision(run))
        .containsEntry("planner_policy", "auto")
        .containsEntry("planner_decision", "skipped");
    assertThat((String) decision(run).get("planner_reason"))
        .startsWith("the deterministic plan already found enough evidence");
    ProgressEvent planned =
        run.events().stream()
            .filter(e -> e.stage() == RunStage.PLANNING && e.status() == Status.COMPLETED)
            .findFirst()
            .orElseThrow();
    assertThat(planned.message()).contains("ollama/test not asked, skipped by policy");
    // The policy's search is the run's retrieval: one search per variant, not two.
    long retrievals =
        run.events().stream()
            .filter(e -> e.stage() == RunStage.RETRIEVAL && e.status() == Status.COMPLETED)
            .count();
    assertThat(retrievals).isEqualTo(1);
    JsonNode trace = JSON.readTree(Path.of(run.tracePath(), "run.json").toFile());
    assertThat(trace.toString()).contains("\"planner_decision\":\"skipped\"");
    assertThat(Path.of(run.tracePath(), "run.md")).content().contains("skipped by policy");
    assertThat(Path.of(run.tracePath(), "planner-input.md")).doesNotExist();
  }

  @Test
  void weakDeterministicEvidenceAsksTheModel() throws Exception {
    var planner = TestChatModel.answering(PLAN);

    RunResult run = runner().run(RunRequest.of(ABSENT).withPlanner(planner), null);

    assertThat(planner.requests).hasSize(1);
    assertThat(run.pack().queryPlan().planner()).isEqualTo(QueryPlan.MODEL_ASSISTED);
    assertThat(decision(run)).containsEntry("planner_decision", "asked");
    assertThat((String) decision(run).get("planner_reason"))
        .matches("(no|weak) evidence from the deterministic plan \\(.+\\)");
    assertThat(run.events())
        .anyMatch(
            e ->
                e.stage() == RunStage.PLANNING
                    && e.message().startsWith("Asking ollama/test for a plan: "));
  }

  @Test
  void alwaysAsksTheModelEvenWhenTheEvidenceIsStrong() throws Exception {
    var planner = TestChatModel.answering(PLAN);
    var budgets = RunBudgets.defaults().withPlannerPolicy(PlannerPolicy.ALWAYS);

    RunResult run =
        runner().run(RunRequest.of(NICHE).withPlanner(planner).withBudgets(budgets), null);

    assertThat(planner.requests).hasSize(1);
    assertThat(run.pack().queryPlan().planner()).isEqualTo(QueryPlan.MODEL_ASSISTED);
    assertThat(decision(run))
        .containsEntry("planner_policy", "always")
        .containsEntry("planner_decision", "asked");
  }

  @Test
  void aFollowUpWithStrongEvidenceNeverWaitsForTheModel() throws Exception {
    String espresso = "What grind size do I use for espresso?";
    RunResult first = runner().run(RunRequest.of(espresso), null);
    var turn =
        new ConversationTurn(
            espresso,
            first.synthesis().citations().stream().map(c -> c.sourceKey()).toList(),
            first.pack().evidence().stream().map(EvidenceRow::sourceKey).toList());
    var planner = TestChatModel.answering(PLAN);

    RunResult second =
        runner()
            .run(
                RunRequest.of("and for the V60?")
                    .withContinuity(ChatContinuity.of(List.of(turn)))
                    .withPlanner(planner),
                null);

    assertThat(second.pack().queryPlan().followUp()).isNotNull();
    assertThat(planner.requests).isEmpty();
    assertThat((String) decision(second).get("planner_reason")).startsWith("a follow-up: ");
  }

  @Test
  void aSavedRunFromBeforeThePolicyReplaysWithItsPlannerAskedEveryTime() throws Exception {
    RunSettings saved =
        RunSettings.fromJson(JSON.readTree("{\"limit\": 8, \"budgets\": {\"max_steps\": 10}}"));
    assertThat(saved.budgets().plannerPolicy()).isEqualTo(PlannerPolicy.ALWAYS);
    String json = JSON.writeValueAsString(RunBudgets.defaults());
    assertThat(json).contains("\"planner_policy\":\"auto\"");
    assertThatThrownBy(() -> PlannerPolicy.parse("sometimes"))
        .isInstanceOf(InvalidSearchException.class)
        .hasMessageContaining("must be auto or always, got sometimes");
  }
}
