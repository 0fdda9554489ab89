package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrainCommandTest {

  @TempDir Path tmp;

  record Run(int code, String out, String err) {}

  private Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void unknownOptionIsAUsageErrorWithExitCodeTwo() {
    var run = brain("--data", tmp.toString(), "stats", "--frobnicate");
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err()).contains("Unknown option: '--frobnicate'");
  }

  @Test
  void indexingAMissingPathIsAUsageError() {
    var run = brain("--data", tmp.toString(), "index", tmp.resolve("nope").toString());
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err()).contains("no such file or folder");
  }

  @Test
  void statsWithoutAnIndexSaysHowToCreateOneWithoutAStackTrace() {
    var run = brain("--data", tmp.resolve("empty").toString(), "stats");
    assertThat(run.code()).isEqualTo(1);
    assertThat(run.err()).contains("no index at").contains("brain index PATH");
    assertThat(run.err()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void mcpWithoutAnIndexSaysHowToCreateOneAndPrintsNothingOnStdout() {
    var run = brain("--data", tmp.resolve("empty").toString(), "mcp");
    assertThat(run.code()).isEqualTo(1);
    assertThat(run.err()).contains("no index at").contains("brain index PATH");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void evalOnAFolderThatIsNotBeirNamesTheMissingFile() throws IOException {
    var folder = Files.createDirectories(tmp.resolve("notes"));
    var run = brain("--data", tmp.resolve("data").toString(), "eval", "beir", folder.toString());
    assertThat(run.code()).isEqualTo(1);
    assertThat(run.err()).contains("is not a BEIR folder: corpus.jsonl is missing");
    assertThat(run.out()).doesNotContain("nDCG@10");
  }

  @Test
  void evalRefusesAChunkBudgetOutOfRange() throws IOException {
    var folder = Files.createDirectories(tmp.resolve("beir"));
    var run =
        brain(
            "--data",
            tmp.resolve("data").toString(),
            "eval",
            "beir",
            "--chunk-tokens",
            "64",
            "--chunk-overlap",
            "40",
            folder.toString());
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err())
        .contains("invalid --chunk-tokens/--chunk-overlap")
        .contains("must be between 0 and 32, got 40");
  }

  @Test
  void versionPrintsTheVersionWithoutBuildingAnyCommand() {
    var run = brain("--data", "/nonexistent", "--version");
    assertThat(run.code()).isZero();
    assertThat(run.out()).startsWith("brain ");
    var sink = new PrintWriter(java.io.Writer.nullWriter());
    assertThat(BrainCommand.commandLine(new BrainCommand(), sink, sink, "-V").getSubcommands())
        .isEmpty();
    assertThat(
            BrainCommand.commandLine(new BrainCommand(), sink, sink, "search", "--version")
                .getSubcommands())
        .containsOnlyKeys("search");
  }

  @Test
  void helpListsTheCommandsAndExitCodes() {
    var run = brain("--help");
    assertThat(run.code()).isZero();
    assertThat(run.out()).contains("index", "stats", "get", "Exit codes");
  }

  @Test
  void indexesAFolderThenReportsStatsGetsARecordAndSkipsUnchangedOnRerun() throws IOException {
    var vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(
        vault.resolve("espresso.md"),
        "---\ntags: [coffee]\n---\n# Espresso\n\nDial in with 18 g in, 36 g out. See [[grinder]].\n");
    Files.writeString(
        vault.resolve("grinder.md"),
        "---\nsummary: Where the grinder is set.\n---\n# Grinder\n\nThe grinder sits at setting"
            + " 12.\n");
    Files.write(vault.resolve("blob.bin"), new byte[] {0, 1, 2, 0, 5});
    var data = tmp.resolve("data").toString();

    var first = brain("--data", data, "index", "--json", vault.toString());
    assertThat(first.code()).as(first.err()).isZero();
    JsonNode report = PrettyJson.MAPPER.readTree(first.out());
    assertThat(report.path("added").asInt()).isEqualTo(2);
    assertThat(report.path("skipped")).hasSize(1);
    assertThat(report.path("chunks_embedded").asLong()).isPositive();

    var second = brain("--data", data, "index", vault.toString());
    assertThat(second.code()).as(second.err()).isZero();
    assertThat(second.out()).contains("0 added", "2 unchanged", "no chunk written");

    var stats = PrettyJson.MAPPER.readTree(brain("--data", data, "stats", "--json").out());
    assertThat(stats.path("records").asLong()).isEqualTo(2);
    assertThat(stats.path("by_source_type").path("note").asLong()).isEqualTo(2);

    var get = brain("--data", data, "get", "note:vault/grinder.md");
    assertThat(get.code()).as(get.err()).isZero();
    assertThat(get.out())
        .contains("setting 12")
        .contains("summary:     Where the grinder is set.")
        .contains("backlinks:   note:vault/espresso.md");

    var missing = brain("--data", data, "get", "note:vault/nope.md");
    assertThat(missing.code()).isEqualTo(1);
    assertThat(missing.err()).contains("no record with key 'note:vault/nope.md'");
  }

  @Test
  void aRemovedAndReAddedOrRebuiltFolderIsNotEmbeddedAgain() throws IOException {
    var vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(
        vault.resolve("grinder.md"), "# Grinder\n\nThe grinder sits at setting 12.\n");
    var data = tmp.resolve("data").toString();
    assertThat(brain("--data", data, "index", vault.toString()).code()).isZero();
    assertThat(brain("--data", data, "remove", "vault").code()).isZero();

    var readded = brain("--data", data, "index", vault.toString());
    var rebuilt = brain("--data", data, "index", "--rebuild", vault.toString());

    assertThat(readded.code()).as(readded.err()).isZero();
    assertThat(readded.out())
        .contains("1 added", "(0 embedded, 1 reused, 1 of them from the embedding cache)");
    assertThat(rebuilt.code()).as(rebuilt.err()).isZero();
    assertThat(rebuilt.out())
        .contains("1 added", "(0 embedded, 1 reused, 1 of them from the embedding cache)");
  }

  @Test
  void configShowsEachValueWithItsSource() throws IOException {
    var data = Files.createDirectories(tmp.resolve("data"));
    Files.writeString(data.resolve("brain.yaml"), "chat:\n  model: ollama/qwen3:8b\n");
    var run = brain("--data", data.toString(), "config");
    assertThat(run.code()).isZero();
    assertThat(run.out())
        .containsPattern("chat.model +ollama/qwen3:8b +\\S*brain.yaml line 2")
        .containsPattern("server.port +8742 +default");

    JsonNode json =
        PrettyJson.MAPPER.readTree(brain("--data", data.toString(), "config", "--json").out());
    assertThat(json.get("file_present").asBoolean()).isTrue();
    assertThat(json.get("settings").findValuesAsText("key"))
        .contains("index.model", "traces.max-age");
  }

  @Test
  void badConfigFileNamesLineKeyAndAllowedValuesWithoutAStackTrace() throws IOException {
    var data = Files.createDirectories(tmp.resolve("data"));
    Files.writeString(data.resolve("brain.yaml"), "retrieval:\n  fusion: borda\n");
    var run = brain("--data", data.toString(), "config");
    assertThat(run.code()).isEqualTo(1);
    assertThat(run.err())
        .contains("brain.yaml line 2: retrieval.fusion = 'borda'")
        .contains("allowed: rrf, normalized")
        .doesNotContain("Exception")
        .doesNotContain("\tat ");
  }

  /** The data directory of a search that will embed its query in this process, as Main sees it. */
  private static java.util.Optional<Path> searchDataDir(String... args) {
    return EarlyArgs.readDataDir(args).filter(d -> EarlyArgs.embeds(args));
  }

  @Test
  void aSearchThatWillEmbedItsQueryIsRecognizedBeforeParsing() throws IOException {
    var data = tmp.resolve("data");
    assertThat(searchDataDir("--data", data.toString(), "search", "espresso")).contains(data);
    assertThat(searchDataDir("search", "--data=" + data, "--limit", "3", "espresso"))
        .contains(data);
    assertThat(searchDataDir("--data", data.toString(), "search", "--", "--help")).contains(data);
    // Not a search, help, or no vector lane: the command decides once parsed.
    assertThat(searchDataDir("--data", data.toString(), "get", "x")).isEmpty();
    assertThat(searchDataDir("search", "--help")).isEmpty();
    assertThat(searchDataDir("search", "--no-semantic", "x")).isEmpty();
    assertThat(searchDataDir("search", "--lanes=bm25", "x")).isEmpty();
    // An advertised server answers instead, unless --local.
    Files.createDirectories(data);
    Files.writeString(data.resolve(ServerAdvertisement.FILE), "{}");
    assertThat(searchDataDir("--data", data.toString(), "search", "x")).isEmpty();
    assertThat(searchDataDir("--data", data.toString(), "search", "--local", "x")).contains(data);
  }

  @Test
  void aSearchOrGetThatWillReadTheIndexHereIsRecognizedBeforeParsing() throws IOException {
    var data = tmp.resolve("data");
    assertThat(EarlyArgs.readDataDir("--data", data.toString(), "search", "--lanes", "bm25", "x"))
        .contains(data);
    assertThat(EarlyArgs.readDataDir("search", "--data=" + data, "--no-semantic", "x"))
        .contains(data);
    assertThat(EarlyArgs.readDataDir("--data", data.toString(), "get", "note:a.md")).contains(data);
    // No command, another command, or help: the command decides once parsed.
    assertThat(EarlyArgs.readDataDir()).isEmpty();
    assertThat(EarlyArgs.readDataDir("--version")).isEmpty();
    assertThat(EarlyArgs.readDataDir("frobnicate", "x")).isEmpty();
    assertThat(EarlyArgs.readDataDir("--data", data.toString(), "status")).isEmpty();
    assertThat(EarlyArgs.readDataDir("--data", data.toString(), "index", "notes")).isEmpty();
    assertThat(EarlyArgs.readDataDir("get", "--help")).isEmpty();
    // An advertised server answers instead, unless --local.
    Files.createDirectories(data);
    Files.writeString(data.resolve(ServerAdvertisement.FILE), "{}");
    assertThat(EarlyArgs.readDataDir("--data", data.toString(), "get", "x")).isEmpty();
    assertThat(EarlyArgs.readDataDir("--data", data.toString(), "get", "--local", "x"))
        .contains(data);
  }
}
