package dev.brain.research.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
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
 * The research answers to {@code samples/probes.jsonl} are pinned: every probe question is run over
 * a fresh index of {@code samples/vault} built deterministically (planner off, extractive
 * synthesizer, default options, no trace) and its answer text, answer status, stop reason, cited
 * keys and evidence keys in rank order must equal the committed golden file. A change that alters
 * an answer on purpose regenerates the file with {@code -Dbrain.golden.update=true} and commits the
 * diff with the reason.
 */
class ProbeGoldenTest {

  private static final Path PROBES = Path.of("..", "samples", "probes.jsonl");
  private static final Path VAULT = Path.of("..", "samples", "vault").toAbsolutePath().normalize();
  private static final Path GOLDEN =
      Path.of("src", "test", "resources", "golden", "probe-answers.jsonl");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  static BrainIndex index;
  static ResearchRunner runner;

  @BeforeAll
  static void indexTheSampleVault() throws IOException {
    // One embedder call per record and one commit: the vectors (and so the rank order) do not
    // depend on how fast the sync's reader ran ahead, as they do with cross-record batches.
    index =
        BrainIndex.open(
            IndexConfig.defaults(dir).withEmbedBatchSize(1).withCommitInterval(Duration.ofDays(1)));
    var report = index.sync(List.of(VAULT));
    assertThat(report.failed()).isEmpty();
    runner = new ResearchRunner(new Retriever(index), null);
  }

  @AfterAll
  static void close() throws IOException {
    index.close();
  }

  @Test
  void probeAnswersEqualTheGoldenFile() throws IOException {
    List<String> actual = new ArrayList<>();
    for (String line : Files.readAllLines(PROBES, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        actual.add(JSON.writeValueAsString(answer(JSON.readTree(line))));
      }
    }
    if (Boolean.getBoolean("brain.golden.update")) {
      Files.createDirectories(GOLDEN.getParent());
      Files.write(GOLDEN, actual, StandardCharsets.UTF_8);
    }
    assertThat(Files.readAllLines(GOLDEN, StandardCharsets.UTF_8))
        .as("probe answers (regenerate with -Dbrain.golden.update=true if the change is intended)")
        .containsExactlyElementsOf(actual);
  }

  private static ObjectNode answer(JsonNode probe) throws IOException {
    RunResult run =
        runner.run(RunRequest.of(probe.get("question").asText()).withTrace(false), null);
    ObjectNode out = JSON.createObjectNode();
    out.put("id", probe.get("id").asText());
    out.put("stop_reason", run.stopReason().wireName());
    out.put("answer_status", run.synthesis().answerStatus().wireName());
    out.put("answer", run.synthesis().answer());
    var citations = out.putArray("citations");
    run.synthesis().citations().forEach(c -> citations.add(c.sourceKey()));
    var evidence = out.putArray("evidence");
    run.pack().evidence().stream().map(EvidenceRow::sourceKey).forEach(evidence::add);
    return out;
  }
}
