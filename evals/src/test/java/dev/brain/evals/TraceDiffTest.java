package dev.brain.evals;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.run.ResearchRunner;
import dev.brain.research.run.RunBudgets;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.trace.TraceStore;
import dev.brain.retrieval.Retriever;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The evidence-key diff of a saved trace and a new run. */
class TraceDiffTest {

  @TempDir Path data;

  @Test
  void anAddedTopRowDoesNotMakeTheOthersLookReordered() {
    TraceDiff d =
        TraceDiff.compare(
            "r", "q", List.of("a", "b", "c"), List.of("x", "a", "b", "c"), null, null, null, null);

    assertThat(d.added()).containsExactly("x");
    assertThat(d.removed()).isEmpty();
    assertThat(d.reordered()).isEmpty();
    assertThat(d.unchanged()).isFalse();
  }

  @Test
  void swappedRowsAreReorderedWithBothRanksAndDroppedRowsRemoved() {
    TraceDiff d =
        TraceDiff.compare(
            "r", "q", List.of("a", "b", "c", "d"), List.of("b", "a", "c"), null, null, null, null);

    assertThat(d.removed()).containsExactly("d");
    assertThat(d.reordered())
        .containsExactly(new TraceDiff.Move("a", 1, 2), new TraceDiff.Move("b", 2, 1));
  }

  @Test
  void aSavedRunRunAgainWithItsOptionsFindsTheSameEvidence() throws Exception {
    Path vault = Path.of("..", "samples", "vault").toAbsolutePath().normalize();
    try (BrainIndex index = BrainIndex.open(IndexConfig.defaults(data.resolve("index")))) {
      index.sync(List.of(vault));
      var traces = new TraceStore(data);
      rerunFindsTheSameEvidence(new ResearchRunner(new Retriever(index), traces), traces);
    }
  }

  private static void rerunFindsTheSameEvidence(ResearchRunner runner, TraceStore traces)
      throws Exception {
    var request =
        RunRequest.of("When do I retire running shoes?")
            .withOptions(ResearchOptions.defaults().withLimit(5).withSemantic(false))
            .withBudgets(RunBudgets.defaults().withInspection(3, 900));
    RunResult saved = runner.run(request, null);
    var trace = new ObjectMapper().readTree(Path.of(saved.tracePath(), "run.json").toFile());

    RunRequest again = TraceDiff.rerun(trace);
    RunResult now = runner.run(again, null);
    TraceDiff diff = TraceDiff.of(trace, now);

    assertThat(again.trace()).isFalse();
    assertThat(again.options().limit()).isEqualTo(5);
    assertThat(again.options().semantic()).isFalse();
    assertThat(again.budgets().inspectRows()).isEqualTo(3);
    assertThat(again.budgets().inspectChars()).isEqualTo(900);
    assertThat(diff.unchanged()).isTrue();
    assertThat(diff.before()).isNotEmpty().isEqualTo(diff.after());
    assertThat(diff.stopReasonBefore()).isEqualTo(diff.stopReasonAfter());
    assertThat(diff.answer().changed()).isFalse();
    assertThat(diff.answer().citationsChanged()).isFalse();
    assertThat(diff.answer().citationsAfter()).isNotEmpty();
    assertThat(traces.list()).hasSize(1);

    // A saved answer that read and cited differently shows up in the diff.
    var synthesis = (ObjectNode) trace.path("synthesis");
    synthesis.put("answer", "An older answer [x:old]");
    synthesis.putArray("citations").addObject().put("source_key", "x:old");
    ((ObjectNode) trace).put("stop_reason", "weak_evidence_budget_exhausted");
    TraceDiff changed = TraceDiff.of(trace, now);
    assertThat(changed.answer().changed()).isTrue();
    assertThat(changed.answer().before()).isEqualTo("An older answer [x:old]");
    assertThat(changed.answer().after()).isEqualTo(now.synthesis().answer());
    assertThat(changed.answer().citationsRemoved()).containsExactly("x:old");
    assertThat(changed.answer().citationsAdded())
        .containsExactlyElementsOf(diff.answer().citationsAfter());
    assertThat(changed.stopReasonBefore()).isEqualTo("weak_evidence_budget_exhausted");
    assertThat(changed.stopReasonAfter()).isEqualTo("enough_evidence");
    assertThat(changed.unchanged()).isTrue();
  }
}
