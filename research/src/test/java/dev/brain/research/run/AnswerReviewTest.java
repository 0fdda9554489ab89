package dev.brain.research.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.models.chat.ChatException;
import dev.brain.research.fixtures.RunnerVault;
import dev.brain.research.fixtures.TestChatModel;
import dev.brain.research.run.ProgressEvent.Status;
import dev.brain.research.synthesis.ResearchResult.Outcome;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: {@code research.review-model} asks a model to review a verified answer against its
 * evidence. The review is recorded (events, sidecars) and never changes the verdict, also when the
 * reviewer objects or fails.
 */
class AnswerReviewTest {

  private static final String NICHE = "What grind size did I settle on for the Niche Zero?";

  @TempDir Path data;

  @BeforeAll
  static void indexTheVault() {
    RunnerVault.index();
  }

  private RunResult run(TestChatModel reviewer) throws Exception {
    return RunnerVault.runner(data, List.of())
        .run(RunRequest.of(NICHE).withReviewer(reviewer), null);
  }

  private static ProgressEvent last(RunResult run) {
    return run.events().stream()
        .filter(e -> e.stage() == RunStage.REVIEW)
        .reduce((a, b) -> b)
        .orElseThrow();
  }

  @Test
  void findingsAreRecordedAndTheVerdictStands() throws Exception {
    var reviewer =
        TestChatModel.answering(
            "Some statements are not supported:\n- The answer says 20; the evidence says 15.\n");

    RunResult run = run(reviewer);

    assertThat(run.status()).isEqualTo(Outcome.OK);
    assertThat(run.verification().passed()).isTrue();
    assertThat(last(run).status()).isEqualTo(Status.COMPLETED);
    assertThat(last(run).message())
        .isEqualTo(
            "ollama/test flagged 1 statement (advisory, the verdict stands): The answer says 20;"
                + " the evidence says 15.");
    assertThat(last(run).data()).containsEntry("model", "ollama/test");
    // The reviewer saw the evidence and the answer, with instructions not to answer itself.
    String sent = reviewer.requests.getFirst().messages().getLast().content();
    assertThat(sent).contains("## Evidence", "## Answer", run.synthesis().answer().strip());
    assertThat(reviewer.requests.getFirst().messages().getFirst().content())
        .contains("Do not answer the question");
    assertThat(Path.of(run.tracePath(), "review-input.md")).content().contains("## Answer");
    assertThat(Path.of(run.tracePath(), "review-output.md")).content().contains("says 20");
    assertThat(run.metrics().modelCalls()).isEqualTo(1);
  }

  @Test
  void noIssuesIsSaidAsSuch() throws Exception {
    RunResult run = run(TestChatModel.answering("No issues."));

    assertThat(last(run).message())
        .isEqualTo("ollama/test found no unsupported statement (advisory)");
    assertThat(last(run).data().get("findings")).isEqualTo(List.of());
  }

  @Test
  void aFailingOrRamblingReviewerIsRecordedAndTheAnswerStands() throws Exception {
    RunResult failed =
        run(TestChatModel.failing(ChatException.Kind.UNAVAILABLE, "connection refused"));
    assertThat(failed.status()).isEqualTo(Outcome.OK);
    assertThat(last(failed).status()).isEqualTo(Status.FAILED);
    assertThat(last(failed).message())
        .startsWith("No review (unavailable: connection refused")
        .endsWith("the answer stands as verified");

    RunResult rambling = run(TestChatModel.answering("I think the grind might be fine."));
    assertThat(rambling.status()).isEqualTo(Outcome.OK);
    assertThat(last(rambling).status()).isEqualTo(Status.FAILED);
    assertThat(last(rambling).message()).contains("listed no findings");
  }

  @Test
  void withoutAReviewerThereIsNoReviewStage() throws Exception {
    RunResult run = RunnerVault.runner(data, List.of()).run(RunRequest.of(NICHE), null);

    assertThat(run.events()).noneMatch(e -> e.stage() == RunStage.REVIEW);
  }
}
