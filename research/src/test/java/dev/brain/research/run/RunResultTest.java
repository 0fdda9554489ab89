package dev.brain.research.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.research.synthesis.ResearchResult.Outcome;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunResultTest {

  @Test
  void aBuiltResultHasTheSchemaItsQuestionAsRetrievalQuestionAndEmptyListsUntilSet() {
    RunResult run = RunResult.builder("run-1", "What grind?", Outcome.OK).build();

    assertThat(run.schemaVersion()).isEqualTo(RunResult.SCHEMA_VERSION);
    assertThat(run.runId()).isEqualTo("run-1");
    assertThat(run.retrievalQuestion()).isEqualTo("What grind?");
    assertThat(run.inspections()).isEmpty();
    assertThat(run.timings()).isEmpty();
    assertThat(run.events()).isEmpty();
    assertThat(run.stopReason()).isNull();
    assertThat(run.pack()).isNull();
  }

  @Test
  void eachSetterFillsItsOwnComponentAndWithPackKeepsTheOthers() {
    RunResult run =
        RunResult.builder("run-2", "and for the V60?", Outcome.PARTIAL)
            .retrievalQuestion("grind size V60")
            .stopReason(StopReason.ENOUGH_EVIDENCE)
            .timings(Map.of("retrieval", 12L))
            .tracePath("/tmp/trace")
            .build();

    RunResult copy = run.withPack(null);

    assertThat(run.status()).isEqualTo(Outcome.PARTIAL);
    assertThat(run.retrievalQuestion()).isEqualTo("grind size V60");
    assertThat(run.stopReason()).isEqualTo(StopReason.ENOUGH_EVIDENCE);
    assertThat(run.timings()).containsEntry("retrieval", 12L);
    assertThat(run.tracePath()).isEqualTo("/tmp/trace");
    assertThat(run.traceError()).isNull();
    assertThat(copy).isEqualTo(run);
  }
}
