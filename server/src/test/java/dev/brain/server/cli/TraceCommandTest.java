package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brain research} through the runner (timeline, trace path, {@code --no-trace}) and {@code
 * brain trace list|show|diff|prune}, over a small vault indexed once for the class.
 */
class TraceCommandTest {

  private static final Pattern TRACE = Pattern.compile("(?m)^trace: (\\S+)$");

  @TempDir static Path tmp;
  static Path vault;
  static String data;

  record Run(int code, String out, String err) {}

  private static Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  @BeforeAll
  static void indexAVault() throws IOException {
    vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(
        vault.resolve("descaling.md"),
        "# Descaling\n\nDescale the espresso machine every eight weeks with citric acid.\n");
    Files.writeString(
        vault.resolve("tomatoes.md"),
        "---\ntags: [garden]\n---\n# Tomatoes\n\nSungold gave 4.2 kg per plant in 2024.\n");
    data = tmp.resolve("data").toString();
    Run index = brain("--data", data, "index", vault.toString());
    assertThat(index.code()).as(index.err()).isZero();
  }

  private static Path tracePath(Run run) {
    Matcher m = TRACE.matcher(run.out());
    assertThat(m.find()).as(run.out()).isTrue();
    return Path.of(m.group(1));
  }

  @Test
  void researchPrintsALiveTimelineOnStderrTheAnswerAndTheTracePath() throws IOException {
    Run run = brain("--data", data, "research", "How often should I descale the espresso machine?");

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.err())
        .contains("▸ planning", "✓ retrieval", "✓ judge", "✓ synthesis", "✓ verification")
        .contains("✓ trace        Trace saved: ");
    assertThat(run.out())
        .contains("[note:vault/descaling.md]", "stop: enough_evidence", "status: ok");
    Path dir = tracePath(run);
    assertThat(dir.getParent()).isEqualTo(Path.of(data, "research-runs"));
    assertThat(dir.resolve("run.md")).isRegularFile();

    Run show = brain("--data", data, "trace", "show", dir.getFileName().toString());
    assertThat(show.code()).as(show.err()).isZero();
    assertThat(show.out())
        .startsWith("# Research run " + dir.getFileName())
        .contains("## Answer", "## Timeline", "## Evidence", "`note:vault/descaling.md`")
        .endsWith("trace: " + dir + "\n");

    Run json = brain("--data", data, "trace", "show", "--json", dir.getFileName().toString());
    JsonNode trace = PrettyJson.MAPPER.readTree(json.out()); // JSON alone
    assertThat(trace.path("schema_version").asText()).isEqualTo("research_trace.v1");
    assertThat(trace.path("surface").asText()).isEqualTo("cli");

    Run list = brain("--data", data, "trace", "list");
    assertThat(list.out()).contains(dir.getFileName().toString(), "enough_evidence");
  }

  @Test
  void traceShowPrintsTheRankingAndJsonPrintsAllOfRunJsonThroughABufferedStdout()
      throws IOException {
    Run run = brain("--data", data, "research", "How often should I descale the espresso machine?");
    String id = tracePath(run).getFileName().toString();

    Run show = brain("--data", data, "trace", "show", id);
    assertThat(show.out()).contains("## Ranking", "Keys per variant", "Re-scored by concepts");

    // As Main prints: a PrintWriter over a stream, buffered, flushed by println only.
    var bytes = new ByteArrayOutputStream();
    int code =
        BrainCommand.run(
            new PrintWriter(bytes, true),
            new PrintWriter(new StringWriter(), true),
            "--data",
            data,
            "trace",
            "show",
            "--json",
            id);
    assertThat(code).isZero();
    byte[] saved = Files.readAllBytes(Path.of(data, "research-runs", id, "run.json"));
    JsonNode printed = PrettyJson.MAPPER.readTree(bytes.toString(StandardCharsets.UTF_8));
    assertThat(printed).isEqualTo(PrettyJson.MAPPER.readTree(saved));
    JsonNode retrieval = null;
    for (JsonNode e : printed.path("events")) {
      if (e.path("stage").asText().equals("retrieval")
          && e.path("status").asText().equals("completed")) {
        retrieval = e.path("data");
      }
    }
    assertThat(retrieval).isNotNull();
    assertThat(retrieval.has("variant_keys") && retrieval.has("rescored")).isTrue();
  }

  @Test
  void noTraceSavesNothing() throws IOException {
    Path runs = Path.of(data, "research-runs");
    long before = count(runs);

    Run run = brain("--data", data, "research", "--no-trace", "Which tomato gave the most?");

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("trace: off");
    assertThat(run.err()).contains("– trace        Trace switched off");
    assertThat(count(runs)).isEqualTo(before);
  }

  @Test
  void diffRunsTheQuestionAgainAndShowsAddedEvidence() throws IOException {
    Run first = brain("--data", data, "research", "citric acid descaling interval");
    String id = tracePath(first).getFileName().toString();

    Run same = brain("--data", data, "trace", "diff", id);
    assertThat(same.code()).as(same.err()).isZero();
    assertThat(same.out()).contains("run " + id, "evidence unchanged", "answer unchanged");

    Path vault2 = Files.createDirectories(tmp.resolve("vault2"));
    Files.writeString(
        vault2.resolve("descale-log.md"),
        "# Descale log\n\nDescaled with citric acid on 2024-05-02; interval stays eight weeks.\n");
    String data2 = tmp.resolve("data2").toString();
    assertThat(brain("--data", data2, "index", vault.toString(), vault2.toString()).code())
        .isZero();
    Files.createDirectories(Path.of(data2, "research-runs"));
    copyTree(tracePath(first), Path.of(data2, "research-runs", id));

    Run changed = brain("--data", data2, "trace", "diff", "--json", id);
    assertThat(changed.code()).as(changed.err()).isZero();
    JsonNode diff = PrettyJson.MAPPER.readTree(changed.out());
    assertThat(diff.path("added").toString()).contains("note:vault2/descale-log.md");
    assertThat(diff.path("unchanged").asBoolean()).isFalse();
    assertThat(diff.path("answer").path("citations_before").isArray()).isTrue();
    assertThat(diff.path("answer").has("changed")).isTrue();
    assertThat(count(Path.of(data2, "research-runs"))).isEqualTo(1); // the re-run is not saved
  }

  @Test
  void pruneReportsHowManyRunsItDeleted() {
    brain("--data", data, "research", "Which tomato gave the most?");

    Run prune = brain("--data", data, "trace", "prune", "--keep", "0", "--max-age-days", "0");

    assertThat(prune.code()).as(prune.err()).isZero();
    assertThat(prune.out()).matches("(?s)deleted (\\d+) of \\1 saved runs \\(kept 0\\)\\n");
    assertThat(brain("--data", data, "trace", "list").out()).startsWith("no saved runs");
  }

  @Test
  void pruneKeepsWhatTracesOfBrainYamlSayUnlessFlagsSayOtherwise() throws IOException {
    String kept = tmp.resolve("data-kept").toString();
    assertThat(brain("--data", kept, "index", vault.toString()).code()).isZero();
    brain("--data", kept, "research", "Which tomato gave the most?");
    brain("--data", kept, "research", "How often should I descale?");
    Files.writeString(
        Path.of(kept, "brain.yaml"),
        "traces:\n  keep-newest: 1\n  max-age: 0d\n",
        java.nio.file.StandardOpenOption.APPEND);

    Run configured = brain("--data", kept, "trace", "prune");
    Run flagged = brain("--data", kept, "trace", "prune", "--keep", "0");

    assertThat(configured.out()).as(configured.err()).startsWith("deleted 1 of 2 saved runs");
    assertThat(flagged.out()).as(flagged.err()).startsWith("deleted 1 of 1 saved runs");
  }

  @Test
  void anUnknownRunIsAnErrorThatSaysHowToListThem() {
    Run show = brain("--data", data, "trace", "show", "19990101");

    assertThat(show.code()).isEqualTo(BrainCommand.EXIT_ERROR);
    assertThat(show.err()).contains("no saved run '19990101'", "brain trace list");
  }

  @Test
  void aTraceOfAVersionThisBrainDoesNotReadIsRefusedNamingTheVersion() throws IOException {
    Run run = brain("--data", data, "research", "citric acid descaling interval");
    Path dir = tracePath(run);
    String id = dir.getFileName().toString();
    Path json = dir.resolve("run.json");
    String original = Files.readString(json);
    Files.writeString(json, original.replace("\"research_trace.v1\"", "\"research_trace.v9\""));
    try {
      for (String[] args :
          new String[][] {
            {"trace", "show", id}, {"trace", "show", "--json", id}, {"trace", "diff", id}
          }) {
        Run refused =
            brain(
                java.util.stream.Stream.concat(Stream.of("--data", data), Stream.of(args))
                    .toArray(String[]::new));
        assertThat(refused.code()).as(refused.out()).isEqualTo(BrainCommand.EXIT_ERROR);
        assertThat(refused.err()).contains("research_trace.v9", "research_trace.v1");
        assertThat(refused.out()).doesNotContain("citric");
      }
      Files.writeString(json, original); // an older, known version reads as before
      assertThat(brain("--data", data, "trace", "show", id).code()).isZero();
    } finally {
      Files.writeString(json, original);
    }
  }

  private static long count(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.count();
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.toList()) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
  }
}
