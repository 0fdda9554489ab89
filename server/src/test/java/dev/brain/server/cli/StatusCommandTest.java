package dev.brain.server.cli;

import static java.nio.file.StandardOpenOption.APPEND;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.BrainConfig;
import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import dev.brain.models.chat.FakeOpenAiServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brain status} before the index's first commit is a state, not an error: a first {@code
 * brain index} killed early leaves {@code brain.yaml} with its collection and an index folder
 * without a commit.
 */
class StatusCommandTest {

  @TempDir Path tmp;

  private Path data;
  private Path notes;

  record Run(int code, String out, String err) {}

  private Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    var all = new String[args.length + 2];
    all[0] = "--data";
    all[1] = data.toString();
    System.arraycopy(args, 0, all, 2, args.length);
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), all);
    return new Run(code, out.toString(), err.toString());
  }

  @BeforeEach
  void collection() throws Exception {
    data = tmp.resolve("data");
    notes = Files.createDirectories(tmp.resolve("notes"));
    Files.writeString(notes.resolve("tea.md"), "# Tea\n\nGreen tea at 80 degrees.\n");
    Files.createDirectories(data);
    CollectionsFile.of(data).write(List.of(CollectionRoot.of("notes", notes)));
  }

  @Test
  void afterAFirstIndexKilledOnceTheIndexWasCreatedStatusSaysNotCommittedWithoutCoverage()
      throws Exception {
    // What a first `brain index` killed a few seconds in leaves: the index it created, with the
    // empty commit an index makes at creation, and nothing of its first sync.
    BrainIndex.open(BrainConfig.defaults(data).indexConfig()).close();
    assertThat(BrainIndex.hasCommit(BrainConfig.defaults(data).indexConfig())).isTrue();

    JsonNode status = PrettyJson.MAPPER.readTree(brain("status", "--json", "--local").out());
    assertThat(status.path("state").asText()).isEqualTo("not_committed");
    assertThat(status.path("records").asLong()).isZero();
    assertThat(status.at("/collections/0/last_sync_at").isNull()).isTrue();
    Run text = brain("status", "--local");
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out()).contains("nothing committed yet").doesNotContain("100%");

    assertThat(brain("index", "--no-progress").code()).isZero();
    JsonNode after = PrettyJson.MAPPER.readTree(brain("status", "--json", "--local").out());
    assertThat(after.path("state").asText()).isEqualTo("indexed");
    assertThat(after.at("/collections/0/records").asLong()).isEqualTo(1);
  }

  @Test
  void anEmptyFolderIndexedSaysNoChunksNotAHundredPercent() throws Exception {
    Files.delete(notes.resolve("tea.md"));
    assertThat(brain("index", "--no-progress").code()).isZero();

    JsonNode status = PrettyJson.MAPPER.readTree(brain("status", "--json", "--local").out());
    assertThat(status.path("state").asText()).isEqualTo("indexed");
    assertThat(brain("status", "--local").out())
        .contains("0 records, 0 chunks, vector: no chunks")
        .doesNotContain("100% of chunks");
  }

  @Test
  void aStaleWatchMarkerNamingALiveUnrelatedProcessNeitherStopsIndexNorReadsAsWatching()
      throws Exception {
    // A watcher killed with -9 leaves watching.pid; after a reboot its pid names another process.
    Files.writeString(data.resolve("watching.pid"), ProcessHandle.current().pid() + "\n");

    Run index = brain("index", "--no-progress");
    assertThat(index.code()).as(index.err()).isZero();
    assertThat(index.out()).doesNotContain("followed by a running watcher").contains("1 added");

    JsonNode status = PrettyJson.MAPPER.readTree(brain("status", "--json", "--local").out());
    assertThat(status.path("watching").asBoolean(true)).isFalse();
    assertThat(status.at("/collections/0/records").asLong()).isEqualTo(1);
    assertThat(brain("status", "--local").out()).contains("watching: no");
  }

  @Test
  void afterAFirstIndexKilledBeforeItsFirstCommitStatusSaysSoAndExitsZero() throws Exception {
    // What `brain index` leaves when killed before its first commit: the folder and its lock.
    Path index = Files.createDirectories(data.resolve("index"));
    Files.createFile(index.resolve("write.lock"));

    Run json = brain("status", "--json", "--local");
    assertThat(json.code()).as(json.err()).isZero();
    JsonNode status = PrettyJson.MAPPER.readTree(json.out()); // stdout is JSON and nothing else
    assertThat(status.path("state").asText()).isEqualTo("not_committed");
    assertThat(status.path("records").asLong()).isZero();
    assertThat(status.at("/collections/0/name").asText()).isEqualTo("notes");
    assertThat(status.at("/collections/0/root").asText()).isEqualTo(notes.toString());
    assertThat(status.at("/collections/0/last_sync_at").isNull()).isTrue();

    Run text = brain("status", "--local");
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("nothing committed yet", "stopped before its first commit", "run `brain index`")
        .contains("notes  " + notes + "  not indexed yet");

    Run index2 = brain("index", "--no-progress");
    assertThat(index2.code()).as(index2.err()).isZero();
    JsonNode after = PrettyJson.MAPPER.readTree(brain("status", "--json", "--local").out());
    assertThat(after.path("state").asText()).isEqualTo("indexed");
    assertThat(after.at("/collections/0/records").asLong()).isEqualTo(1);
  }

  @Test
  void withCollectionsButNoIndexFolderStatusSaysNothingIsIndexedYet() throws Exception {
    Run json = brain("status", "--json", "--local");
    assertThat(json.code()).as(json.err()).isZero();
    JsonNode status = PrettyJson.MAPPER.readTree(json.out());
    assertThat(status.path("state").asText()).isEqualTo("no_index");
    assertThat(status.at("/collections/0/name").asText()).isEqualTo("notes");
    assertThat(brain("status", "--local").out()).contains("nothing indexed yet");
  }

  @Test
  void aDataDirectoryThatDoesNotExistIsStillAnError() {
    data = tmp.resolve("no-such-data");
    Run run = brain("status", "--json", "--local");
    assertThat(run.code()).isEqualTo(BrainCommand.EXIT_ERROR);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("no index at");
  }

  @Test
  void aVaultWithThreeHundredImagesGetsOneLineAboutThemFromAddAndStatus() throws Exception {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(vault.resolve("trip.md"), "# Trip\n\nPhotos of the ridge walk.\n");
    Path images = Files.createDirectories(vault.resolve("attachments"));
    for (int i = 0; i < 300; i++) {
      Files.write(images.resolve("photo-" + i + ".png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
    }
    for (String other : List.of("a.mp4", "b.mp4", "c.jpg", "d.zip", "e.ttf", "f.docx")) {
      Files.write(images.resolve(other), new byte[] {0, 0, 0, 1});
    }
    Files.writeString(vault.resolve("board.canvas"), "{\"nodes\":[]}");

    Run add = brain("add", vault.toString(), "--no-progress");
    assertThat(add.code()).as(add.err()).isZero();
    assertThat(linesAboutAttachments(add.out()))
        .containsExactly(
            "306 attachments skipped: 300 .png, 2 .mp4, 1 .docx, 1 .jpg, 2 more of 2 other types");
    // A real problem is still listed by file, with its reason.
    assertThat(add.out()).contains("skipped " + vault.resolve("board.canvas"));

    Run text = brain("status", "--local");
    assertThat(text.code()).as(text.err()).isZero();
    // The sync time for people: to the second, in UTC, with its age; no nanoseconds.
    assertThat(text.out())
        .containsPattern(
            "  last sync: \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC \\((just now|\\d+ min ago)\\)\n");
    assertThat(linesAboutAttachments(text.out()))
        .hasSizeLessThanOrEqualTo(3)
        .containsExactly(
            "  306 attachments skipped: 300 .png, 2 .mp4, 1 .docx, 1 .jpg, 2 more of 2 other"
                + " types");
    assertThat(text.out()).contains("skipped 1:", "board.canvas: unsupported file type .canvas");

    JsonNode json = PrettyJson.MAPPER.readTree(brain("status", "--json", "--local").out());
    JsonNode attachments = json.at("/collections/1/attachments");
    // JSON keeps ISO-8601.
    assertThat(java.time.Instant.parse(json.at("/collections/1/last_sync_at").asText()))
        .isNotNull();
    assertThat(json.at("/collections/1/name").asText()).isEqualTo("vault");
    assertThat(attachments.path("total").asInt()).isEqualTo(306);
    assertThat(attachments.path("by_extension").path("png").asInt()).isEqualTo(300);
    assertThat(attachments.path("by_extension").size()).isEqualTo(6);
    assertThat(json.at("/collections/1/skipped")).hasSize(1);
  }

  private static List<String> linesAboutAttachments(String out) {
    return out.lines().filter(l -> l.contains(".png") || l.contains("attachment")).toList();
  }

  @Test
  void statusListsTruncatedRecordsAndBadLinesWithTheirReasons() throws Exception {
    Files.writeString(data.resolve("brain.yaml"), "index:\n  max-chunks-per-record: 2\n", APPEND);
    StringBuilder log = new StringBuilder("# Log\n\n");
    for (int i = 0; i < 200; i++) {
      log.append("Entry ").append(i).append(": the backup copied every folder and checked it.\n\n");
    }
    Files.writeString(notes.resolve("log.md"), log);
    Files.writeString(
        notes.resolve("docs.jsonl"),
        "{\"_id\": \"a\", \"text\": \"fine\"}\n{\"_id\": \"b\", \"text\": \"x\"} trailing\n");
    assertThat(brain("index", "--no-progress").code()).isZero();

    Run text = brain("status", "--local");
    assertThat(text.out())
        .contains("truncated 1:", notes.resolve("log.md") + ": note:notes/log.md is truncated")
        .contains("only its first 2 chunks are indexed")
        .contains("warnings 1:", "docs.jsonl:2: skipped: text after the JSON value");
    JsonNode json = PrettyJson.MAPPER.readTree(brain("status", "--json", "--local").out());
    assertThat(json.at("/collections/0/truncated/0/reason").asText())
        .contains("index.max-chunks-per-record");
    assertThat(json.at("/collections/0/warnings/0/file").asText())
        .isEqualTo(notes.resolve("docs.jsonl").toString());
  }

  @Test
  void statusShowsSummaryCoverageOfTheLongRecords() throws Exception {
    var note = new StringBuilder("# Trip\n\n");
    for (int i = 0; i < 5; i++) {
      note.append("## Day ").append(i).append("\n\nWe walked along the coast.\n\n");
    }
    Files.writeString(notes.resolve("trip.md"), note);
    assertThat(brain("index", "--no-progress").code()).isZero();
    assertThat(brain("status", "--local").out()).contains("summaries: 100% (1 of 1 long records)");
    JsonNode json = PrettyJson.MAPPER.readTree(brain("status", "--json", "--local").out());
    assertThat(json.path("summarized_records").asLong()).isEqualTo(1);
    assertThat(json.path("summary_candidates").asLong()).isEqualTo(1);
    assertThat(json.path("summary_coverage").asDouble()).isEqualTo(1.0);

    Files.writeString(data.resolve("brain.yaml"), "index:\n  summaries: none\n", APPEND);
    assertThat(brain("index", "--no-progress").code()).isZero();
    assertThat(brain("status", "--local").out()).contains("summaries: 0% (0 of 1 long records)");
    json = PrettyJson.MAPPER.readTree(brain("status", "--json", "--local").out());
    assertThat(json.path("summary_coverage").asDouble()).isZero();
  }

  @Test
  void statusShowsModelSummaryCoverageAndEachFailureWithItsReason() throws Exception {
    var note = new StringBuilder("# Trip\n\n");
    for (int i = 0; i < 5; i++) {
      note.append("## Day ").append(i).append("\n\nWe walked along the coast.\n\n");
    }
    Files.writeString(notes.resolve("trip.md"), note);
    try (FakeOpenAiServer openAi = FakeOpenAiServer.start()) {
      Files.writeString(
          data.resolve("brain.yaml"),
          "index:\n  summary-model: openai/fake\n  summary-retry-backoff: 0s\n"
              + "chat:\n  openai-url: "
              + openAi.baseUrl()
              + "\n",
          APPEND);
      assertThat(brain("config").out()).contains("index.summary-model", "openai/fake");

      // Nothing scripted: the model answers HTTP 500, the note keeps its extractive summary.
      Run index = brain("index", "--no-progress");
      assertThat(index.code()).isZero();
      assertThat(index.out()).contains("model summaries: 0 made, 1 failed");
      String text = brain("status", "--local").out();
      assertThat(text)
          .contains("summaries: 100% (1 of 1 long records)")
          .contains("model summaries (openai/fake): 0% (0 of 1 long records), 1 failed")
          .contains("summary failed: note:notes/trip.md: ", "HTTP 500", "(attempt 1;");
      JsonNode json = PrettyJson.MAPPER.readTree(brain("status", "--json", "--local").out());
      assertThat(json.path("summary_model").asText()).isEqualTo("openai/fake");
      assertThat(json.path("model_summary_failed").asLong()).isEqualTo(1);
      assertThat(json.at("/model_summary_failures/0/reason").asText()).contains("HTTP 500");

      openAi.enqueue(FakeOpenAiServer.answer("fake", List.of("A walk along the coast."), 9, 9));
      assertThat(brain("index", "--no-progress").code()).isZero();
      assertThat(brain("status", "--local").out())
          .contains("model summaries (openai/fake): 100% (1 of 1 long records)")
          .doesNotContain("summary failed");
      json = PrettyJson.MAPPER.readTree(brain("status", "--json", "--local").out());
      assertThat(json.path("model_summary_coverage").asDouble()).isEqualTo(1.0);
      assertThat(json.path("model_summarized_records").asLong()).isEqualTo(1);
    }
  }
}
