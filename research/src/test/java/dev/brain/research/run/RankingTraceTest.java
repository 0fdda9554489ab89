package dev.brain.research.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.research.fixtures.RunnerVault;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.synthesis.SynthesisOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A saved run explains its ranking: the keys each query variant returned (lanes, score), each row's
 * score before and after the concept re-scoring, and every row left out with why — read back from
 * {@code run.json} and {@code run.md} of a real run over the sample vault.
 */
class RankingTraceTest {

  private static final String QUESTION = "What grind size did I settle on for the Niche Zero?";
  private static final int LIMIT = 3;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path data;

  @BeforeAll
  static void indexTheVault() {
    RunnerVault.index();
  }

  /** A run with a pack of three rows and the smallest evidence budget, read back from disk. */
  private JsonNode savedRun() throws Exception {
    RunResult run =
        RunnerVault.runner(data, List.of())
            .run(
                RunRequest.of(QUESTION)
                    .withOptions(ResearchOptions.defaults().withLimit(LIMIT))
                    .withSynthesis(SynthesisOptions.defaults().withMaxEvidenceChars(500))
                    .withSurface("test"),
                null);
    return JSON.readTree(Path.of(run.tracePath()).resolve("run.json").toFile());
  }

  private static JsonNode completed(JsonNode trace, String stage) {
    for (JsonNode e : trace.path("events")) {
      if (e.path("stage").asText().equals(stage) && e.path("status").asText().equals("completed")) {
        return e.path("data");
      }
    }
    throw new AssertionError("no completed " + stage + " event");
  }

  private static List<String> texts(JsonNode array, String field) {
    var out = new ArrayList<String>();
    array.forEach(n -> out.add(n.path(field).asText()));
    return out;
  }

  @Test
  void eachVariantRecordsTheKeysItReturnedWithLanesAndScoreAtMostTheLimit() throws Exception {
    JsonNode retrieval = completed(savedRun(), "retrieval");

    JsonNode variants = retrieval.path("variant_keys");
    assertThat(variants.size()).isGreaterThan(1);
    for (JsonNode v : variants) {
      assertThat(v.path("query").asText()).isNotBlank();
      assertThat(v.path("keys").size()).isLessThanOrEqualTo(LIMIT);
      assertThat(v.path("rows").asInt()).isGreaterThanOrEqualTo(v.path("keys").size());
      for (JsonNode k : v.path("keys")) {
        assertThat(k.path("source_key").asText()).contains(":");
        assertThat(strings(k.path("lanes"))).isNotEmpty().isSubsetOf("bm25", "vector", "exact_tag");
        assertThat(k.path("score").isNumber()).isTrue();
        assertThat(k.path("score").asDouble()).isPositive();
      }
    }
    assertThat(variants).anySatisfy(v -> assertThat(v.path("keys").size()).isEqualTo(LIMIT));
  }

  @Test
  void theRescoringRecordsScoresBeforeAndAfterAndThePackRankOfEachKeptRow() throws Exception {
    JsonNode trace = savedRun();
    JsonNode rescored = completed(trace, "retrieval").path("rescored");
    List<String> pack = texts(trace.path("pack").path("evidence"), "source_key");

    // Bounded by the search pool (at least ten rows), best first.
    assertThat(rescored.size()).isBetween(pack.size(), 10);
    double previous = Double.MAX_VALUE;
    for (JsonNode r : rescored) {
      assertThat(r.path("before").isNumber()).isTrue();
      assertThat(r.path("after").asDouble()).isLessThanOrEqualTo(previous);
      previous = r.path("after").asDouble();
    }
    for (int i = 0; i < pack.size(); i++) {
      assertThat(rescored.get(i).path("source_key").asText()).isEqualTo(pack.get(i));
      assertThat(rescored.get(i).path("rank").asInt()).isEqualTo(i + 1);
    }
    assertThat(rescored.get(0).path("after").asDouble())
        .as("the top row matches every required concept: its score rose")
        .isGreaterThan(rescored.get(0).path("before").asDouble());
    assertThat(rescored).noneMatch(r -> r.has("rank") && r.path("rank").asInt() > LIMIT);
  }

  @Test
  void everyRowLeftOutSaysWhyFromRankingToTheEvidenceBudget() throws Exception {
    JsonNode trace = savedRun();
    JsonNode retrieval = completed(trace, "retrieval");
    JsonNode preparation = completed(trace, "preparation");

    JsonNode dropped = retrieval.path("dropped");
    assertThat(dropped.size()).isBetween(1, 10);
    assertThat(texts(dropped, "reason"))
        .allMatch(r -> Set.of("off_topic", "past_limit", "no_direct_evidence").contains(r))
        .contains("past_limit");
    List<String> pack = texts(trace.path("pack").path("evidence"), "source_key");
    assertThat(texts(dropped, "source_key")).doesNotContainAnyElementsOf(pack);

    // 500 characters hold one row: the others are dropped by the budget, and say so.
    List<String> truncated =
        strings(trace.path("prepared_synthesis").path("truncation").path("dropped_source_keys"));
    assertThat(truncated).isNotEmpty();
    JsonNode byBudget = preparation.path("dropped");
    assertThat(texts(byBudget, "reason")).containsOnly("evidence_budget");
    assertThat(texts(byBudget, "source_key")).isEqualTo(truncated);

    Path dir = data.resolve("research-runs").resolve(trace.path("run_id").asText());
    String md = Files.readString(dir.resolve("run.md"));
    assertThat(md).contains("## Ranking", "Keys per variant", " → ", "past_limit");
    assertThat(md).contains("`" + truncated.get(0) + "`: evidence_budget");
  }

  @Test
  void aFocusedRetryRecordsTheKeysItsSearchReturnedAndItsRejectionsWithWhy() throws Exception {
    RunResult run =
        RunnerVault.runner(data, List.of())
            .run(RunRequest.of("plantar fasciitis stretches and shoes mileage"), null);
    JsonNode trace = JSON.readTree(Path.of(run.tracePath()).resolve("run.json").toFile());

    JsonNode retry = completed(trace, "retry");
    assertThat(retry.path("variant_keys").size()).isPositive();
    assertThat(retry.path("variant_keys").get(0).path("keys").get(0).path("source_key").asText())
        .isNotBlank();
    assertThat(trace.path("merge").path("rejected"))
        .allSatisfy(r -> assertThat(r.path("reason").asText()).isNotBlank());
  }

  private static List<String> strings(JsonNode array) {
    var out = new ArrayList<String>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
