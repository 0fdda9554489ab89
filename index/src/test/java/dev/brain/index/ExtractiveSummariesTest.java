package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sync gives every long record without a summary of its own an extractive one, stored as its
 * summary and indexed as summary chunks; it is made again only when the text changes, and a summary
 * whose text did not change is never embedded again.
 */
class ExtractiveSummariesTest {

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

  /** A note of five sections, each opening with {@code lead} sentences given here. */
  static String longNote(String title, String... leads) {
    var out = new StringBuilder("# ").append(title).append("\n\n");
    out.append("This note is about ").append(title.toLowerCase()).append(".\n\n");
    for (int i = 0; i < leads.length; i++) {
      out.append("## Part ").append(i + 1).append("\n\n").append(leads[i]).append(' ');
      out.append("We wrote down what we saw and went on walking along the shore. ".repeat(4));
      out.append("\n\nA second paragraph about the weather, the wind and the light.\n\n");
    }
    return out.toString();
  }

  private Path vault() throws IOException {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(
        vault.resolve("island.md"),
        longNote(
            "Island",
            "The ferry left at dawn.",
            "Bicycles are rented by the pier.",
            "The lighthouse is closed on Mondays."));
    Files.writeString(
        vault.resolve("harbour.md"),
        longNote(
            "Harbour",
            "Old boats lie on the slipway.",
            "Gulls nest on the roofs.",
            "Tea is sold."));
    Files.writeString(vault.resolve("short.md"), "# Short\n\nOne line.\n\nAnother line.\n");
    return vault;
  }

  @Test
  void longNotesGetAnExtractiveSummaryAndShortOnesNone() throws IOException {
    Path vault = vault();
    try (var index = BrainIndex.open(IndexConfig.defaults(data), model)) {
      index.sync(List.of(vault));
      RecordDetail island = index.get("note:vault/island.md").orElseThrow();
      assertThat(island.record().summary())
          .startsWith("This note is about island.")
          .contains(
              "- Part 1: The ferry left at dawn.",
              "- Part 3: The lighthouse is closed on Mondays.");
      List<Chunk> summaries = summaryChunks(island);
      assertThat(summaries).isNotEmpty();
      for (Chunk c : summaries) {
        assertThat(island.record().summary().substring(c.startChar(), c.endChar()))
            .isEqualTo(c.text());
      }
      RecordDetail shortNote = index.get("note:vault/short.md").orElseThrow();
      assertThat(shortNote.record().summary()).isNull();
      assertThat(summaryChunks(shortNote)).isEmpty();
      IndexStats stats = index.stats();
      assertThat(stats.summarizedRecords()).isEqualTo(2);
      assertThat(stats.summaryCandidates()).isEqualTo(2);
    }
  }

  @Test
  void aChangedNotesSummaryIsMadeAgainAndAnUnchangedOneIsNeverEmbeddedAgain() throws IOException {
    Path vault = vault();
    var embedder = new CountingEmbedder(model);
    try (var index = BrainIndex.open(IndexConfig.defaults(data), embedder)) {
      index.sync(List.of(vault));
      String harbourSummary = summaryText("note:vault/harbour.md", index);
      String islandSummary = summaryText("note:vault/island.md", index);
      assertThat(embedder.passages()).anyMatch(p -> p.endsWith(islandSummary));

      // A first sentence changes: the island's summary changes with it.
      Path island = vault.resolve("island.md");
      Files.writeString(
          island,
          Files.readString(island).replace("The ferry left at dawn.", "The ferry left at noon."));
      embedder.reset();
      SyncReport changed = index.sync(List.of(vault));
      assertThat(changed.updated()).isEqualTo(1);
      assertThat(changed.unchanged()).isEqualTo(2);
      String newSummary = summaryText("note:vault/island.md", index);
      assertThat(newSummary).contains("The ferry left at noon.").isNotEqualTo(islandSummary);
      assertThat(embedder.passages()).anyMatch(p -> p.endsWith(newSummary));
      assertThat(embedder.passages()).noneMatch(p -> p.contains("Old boats lie on the slipway"));
      assertThat(summaryText("note:vault/harbour.md", index)).isEqualTo(harbourSummary);

      // A later sentence changes: the text is chunked again, the summary is the same and its
      // vector is reused.
      Files.writeString(
          island,
          Files.readString(island).replaceFirst("the weather, the wind", "the rain, the wind"));
      embedder.reset();
      SyncReport again = index.sync(List.of(vault));
      assertThat(again.updated()).isEqualTo(1);
      assertThat(summaryText("note:vault/island.md", index)).isEqualTo(newSummary);
      assertThat(embedder.passages()).isNotEmpty().noneMatch(p -> p.endsWith(newSummary));
      assertThat(index.stats().embeddedChunks()).isEqualTo(index.stats().chunks());
    }
  }

  @Test
  void aSummaryTheNoteBringsWinsOverTheExtractiveOne() throws IOException {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(
        vault.resolve("own.md"),
        "---\nsummary: A walk around the bay.\n---\n"
            + longNote("Bay", "Seals rest on the rocks.", "Crabs hide.", "Boats pass."));
    try (var index = BrainIndex.open(IndexConfig.defaults(data), model)) {
      index.sync(List.of(vault));
      RecordDetail own = index.get("note:vault/own.md").orElseThrow();
      assertThat(own.record().summary()).isEqualTo("A walk around the bay.");
      assertThat(summaryChunks(own))
          .extracting(Chunk::text)
          .containsExactly("A walk around the bay.");
      assertThat(index.stats().summarizedRecords()).isEqualTo(1);
    }
  }

  @Test
  void withSummariesOffLongNotesAreCountedAsLackingOne() throws IOException {
    Path vault = vault();
    var config = IndexConfig.defaults(data).withSummaries(SummaryMode.NONE);
    try (var index = BrainIndex.open(config, model)) {
      index.sync(List.of(vault));
      RecordDetail island = index.get("note:vault/island.md").orElseThrow();
      assertThat(island.record().summary()).isNull();
      assertThat(summaryChunks(island)).isEmpty();
      assertThat(index.stats().summarizedRecords()).isZero();
      assertThat(index.stats().summaryCandidates()).isEqualTo(2);
    }
    // Switching them on makes them on the next sync, though no file changed.
    try (var index = BrainIndex.open(IndexConfig.defaults(data), model)) {
      SyncReport report = index.sync(List.of(vault));
      assertThat(report.updated()).isEqualTo(3);
      assertThat(summaryChunks(index.get("note:vault/island.md").orElseThrow())).isNotEmpty();
      assertThat(index.stats().summarizedRecords()).isEqualTo(2);
    }
  }

  private static List<Chunk> summaryChunks(RecordDetail detail) {
    return detail.chunks().stream().filter(c -> c.role() == ChunkRole.SUMMARY).toList();
  }

  private static String summaryText(String key, BrainIndex index) throws IOException {
    return index.get(key).orElseThrow().record().summary();
  }
}
