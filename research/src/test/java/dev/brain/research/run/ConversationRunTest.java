package dev.brain.research.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.research.fixtures.RunnerVault;
import dev.brain.research.pack.MergeReport;
import dev.brain.research.plan.ChatContinuity;
import dev.brain.research.plan.ConversationTurn;
import dev.brain.research.plan.FollowUp;
import dev.brain.retrieval.EvidenceRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: a short follow-up keeps the earlier turn's intent. After "What grind size do I use for
 * espresso?", "and for the V60?" asks for the V60's grind size, not for an overview of the V60.
 */
class ConversationRunTest {

  private static final String ESPRESSO = "What grind size do I use for espresso?";
  private static final String FOLLOW_UP = "and for the V60?";
  private static final String V60_KEY = "note:vault/coffee/V60 recipe.md";

  @TempDir Path data;

  @BeforeAll
  static void indexTheVault() {
    RunnerVault.index();
  }

  private ResearchRunner runner() {
    return RunnerVault.runner(data, List.of());
  }

  @Test
  void aFollowUpWithTheConversationQuotesTheV60GrindSetting() throws Exception {
    RunResult first = runner().run(RunRequest.of(ESPRESSO), null);
    var turn =
        new ConversationTurn(
            ESPRESSO,
            first.synthesis().citations().stream().map(c -> c.sourceKey()).toList(),
            first.pack().evidence().stream().map(EvidenceRow::sourceKey).toList());

    RunResult second =
        runner()
            .run(RunRequest.of(FOLLOW_UP).withContinuity(ChatContinuity.of(List.of(turn))), null);

    FollowUp followUp = second.pack().queryPlan().followUp();
    assertThat(followUp).isNotNull();
    assertThat(followUp.previousQuestion()).isEqualTo(ESPRESSO);
    assertThat(followUp.resolvedQuestion()).containsIgnoringCase("grind").contains("V60");
    assertThat(followUp.inheritedConcepts()).anyMatch(k -> k.contains("grind"));
    assertThat(second.pack().queryPlan().concepts())
        .filteredOn(c -> c.required())
        .extracting(c -> c.key())
        .anyMatch(k -> k.contains("grind"))
        .anyMatch(k -> k.contains("v60"));
    assertThat(second.synthesis().answer()).contains("42");
    assertThat(second.synthesis().citations()).anyMatch(c -> c.sourceKey().equals(V60_KEY));

    Path trace = Path.of(second.tracePath());
    assertThat(Files.readString(trace.resolve("run.md")))
        .contains("- Follow-up: a short follow-up of \"" + ESPRESSO);
    var plan = new ObjectMapper().readTree(trace.resolve("run.json").toFile());
    assertThat(plan.findPath("follow_up").path("previous_question").asText()).isEqualTo(ESPRESSO);
  }

  @Test
  void anEarlierTurnsEvidenceEntersAsCandidatesOnlyWhenItMatchesTheFollowUp() throws Exception {
    String compost = "note:vault/garden/Compost.md";
    var turn = new ConversationTurn(ESPRESSO, List.of(compost), List.of(V60_KEY));

    RunResult second =
        runner()
            .run(RunRequest.of(FOLLOW_UP).withContinuity(ChatContinuity.of(List.of(turn))), null);

    MergeReport earlier = earlierTurnReport(second);
    assertThat(earlier.action()).isEqualTo(MergeReport.EARLIER_TURN);
    assertThat(earlier.rejected())
        .filteredOn(r -> r.sourceKey().equals(compost))
        .extracting(MergeReport.Rejected::reason)
        .containsExactly("does not mention every required concept of this question");
    assertThat(earlier.accepted()).doesNotContain(compost);
    assertThat(second.pack().find(compost)).isEmpty();
    assertThat(second.pack().find(V60_KEY)).isPresent();
  }

  private static MergeReport earlierTurnReport(RunResult run) {
    Object data =
        run.events().stream()
            .filter(e -> e.stage() == RunStage.RETRIEVAL && e.data().containsKey("earlier_turn"))
            .findFirst()
            .orElseThrow()
            .data()
            .get("earlier_turn");
    return (MergeReport) data;
  }

  @Test
  void withoutTheConversationTheFragmentIsAQuestionOfItsOwn() throws Exception {
    RunResult alone = runner().run(RunRequest.of(FOLLOW_UP), null);

    assertThat(alone.pack().queryPlan().followUp()).isNull();
    assertThat(alone.pack().queryPlan().concepts())
        .filteredOn(c -> c.required())
        .extracting(c -> c.key())
        .noneMatch(k -> k.contains("grind"));
  }
}
