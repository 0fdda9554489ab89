package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.chunking.ChunkRole;
import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One huge file in a vault: it is indexed with its first chunks only (the cap), reported as
 * truncated on every sync, chunked again when the cap changes, and embedded after the other files,
 * in slices that are committed as they come.
 */
class ChunkCapTest {

  private static final int CAP = 20;
  private static final String HUGE = "note:vault/huge.md";

  @TempDir Path data;
  @TempDir Path tmp;

  private static Embedder model;

  @BeforeAll
  static void loadModel() {
    model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
  }

  @AfterAll
  static void closeModel() {
    model.close();
  }

  /** A note of about 120 chunks at the default budget, and five small ones. */
  private Path vault() throws IOException {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    String huge =
        IntStream.range(0, 400)
            .mapToObj(
                i ->
                    "Paragraph "
                        + i
                        + " of the long log: the nightly backup copied the photo archive, checked"
                        + " every file against its checksum, and wrote a line for each folder"
                        + " it visited on the way.")
            .collect(Collectors.joining("\n\n", "# Huge log\n\n", "\n"));
    Files.writeString(vault.resolve("huge.md"), huge);
    for (int i = 0; i < 5; i++) {
      Files.writeString(
          vault.resolve("small-" + i + ".md"), "# Small " + i + "\n\nA short note about tea " + i);
    }
    return vault;
  }

  /** Without summaries, so every chunk counted here is one of the text's. */
  private IndexConfig config(int cap) {
    return IndexConfig.defaults(data)
        .withSummaries(SummaryMode.NONE)
        .withMaxChunksPerRecord(cap)
        .withEmbedBatchSize(8)
        .withCommitInterval(Duration.ZERO);
  }

  @Test
  void aHugeFileIsIndexedWithItsFirstChunksAndReportedAsTruncated() throws IOException {
    Path vault = vault();
    var embedder = new CountingEmbedder(model);
    try (var index = BrainIndex.open(config(CAP), embedder)) {
      SyncReport report = index.sync(List.of(vault));

      var huge = index.get(HUGE).orElseThrow();
      assertThat(huge.chunks()).hasSize(CAP);
      assertThat(huge.chunks().getLast().endChar()).isLessThan(huge.record().text().length() / 3);
      assertThat(huge.record().text()).contains("Paragraph 399 of the long log");
      assertThat(report.truncated()).singleElement().satisfies(issue -> truncatedIssue(issue));
      assertThat(report.added()).isEqualTo(6);
      var status = index.collections().getFirst();
      assertThat(status.truncated())
          .singleElement()
          .satisfies(
              issue -> {
                assertThat(issue.file()).isEqualTo(vault.resolve("huge.md").toString());
                assertThat(issue.reason()).contains(HUGE, "first 20 chunks");
              });
      assertThat(index.stats().vectorCoverage()).isEqualTo(1.0);
      // The small notes were embedded before the huge one.
      assertThat(embedder.passages().subList(0, 5)).allMatch(p -> p.contains("Small"));
    }
  }

  @Test
  void anUnchangedTruncatedFileStaysReportedAndIsChunkedAgainWhenTheCapChanges()
      throws IOException {
    Path vault = vault();
    try (var index = BrainIndex.open(config(CAP), model)) {
      index.sync(List.of(vault));
      SyncReport again = index.sync(List.of(vault));
      assertThat(again.unchanged()).isEqualTo(6);
      assertThat(again.truncated()).singleElement().satisfies(issue -> truncatedIssue(issue));
      assertThat(index.collections().getFirst().truncated()).hasSize(1);
    }
    try (var index = BrainIndex.open(config(CAP + 10), model)) {
      SyncReport raised = index.sync(List.of(vault));
      assertThat(raised.updated()).isEqualTo(1);
      assertThat(raised.unchanged()).isEqualTo(5);
      assertThat(index.get(HUGE).orElseThrow().chunks()).hasSize(CAP + 10);
      assertThat(raised.truncated().getFirst().reason()).contains("first 30 chunks");
    }
    try (var index = BrainIndex.open(config(10_000), model)) {
      SyncReport whole = index.sync(List.of(vault));
      assertThat(whole.truncated()).isEmpty();
      var chunks = index.get(HUGE).orElseThrow().chunks();
      assertThat(chunks.stream().filter(c -> c.role() != ChunkRole.SUMMARY)).hasSizeGreaterThan(60);
      assertThat(index.collections().getFirst().truncated()).isEmpty();
    }
  }

  @Test
  void theOtherFilesAreSearchableFirstAndTheHugeOneIsEmbeddedInCommittedSlices()
      throws IOException {
    Path vault = vault();
    var coverage = new ArrayList<Long>();
    var atLexical = new ArrayList<IndexStats>();
    try (var index = BrainIndex.open(config(CAP), model)) {
      var listener =
          new SyncListener() {
            @Override
            public void lexicalCommitted(int recordsWritten) {
              atLexical.add(committedStats());
            }

            @Override
            public void committed(int recordsWritten) {
              coverage.add(committedStats().embeddedChunks());
            }
          };
      index.sync(List.of(vault), listener);
    }
    assertThat(atLexical).singleElement().satisfies(s -> assertThat(s.records()).isEqualTo(6));
    // Five small chunks, then the huge note's 20 in slices of 8: commits in between saw 13 and 21.
    assertThat(coverage).contains(13L, 21L);
    assertThat(coverage.getLast()).isEqualTo(25L);
  }

  private IndexStats committedStats() {
    try (var reader = BrainIndex.openReadOnly(config(CAP), model)) {
      return reader.stats();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void truncatedIssue(SyncReport.FileIssue issue) {
    assertThat(issue.file().getFileName().toString()).isEqualTo("huge.md");
    assertThat(issue.reason())
        .contains(HUGE, "is truncated", "first 20 chunks", "index.max-chunks-per-record");
  }
}
