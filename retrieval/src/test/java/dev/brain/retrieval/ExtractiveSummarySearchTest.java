package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.index.SummaryMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A long note's extractive summary is searched in both lanes: a question about two of its sections
 * at once is answered best by the summary chunk, the only chunk holding the first sentence of each
 * (the text's chunks hold one section each), and the row says it was found through the summary.
 */
class ExtractiveSummarySearchTest {

  private static final String QUERY = "quokkaberry harvest festival and zanthoria lichens";

  @TempDir Path dir;

  private Path vault() throws IOException {
    Path vault = Files.createDirectories(dir.resolve("vault"));
    String filler =
        " We cycled on past the salt lakes, stopped for water at the settlement and rode back"
            + " along the western road while the wind turned and the ferry horn sounded twice.";
    Files.writeString(
        vault.resolve("island.md"),
        "# Island weekend\n\nTwo days on the island in spring.\n\n"
            + "## Saturday\n\nThe quokkaberry harvest festival fills the main square."
            + filler.repeat(3)
            + "\n\nIn the evening we ate at the bakery by the jetty.\n\n"
            + "## Sunday\n\nZanthoria lichens cover the old stone walls of the fort."
            + filler.repeat(3)
            + "\n\nWe took the last boat home.\n");
    Files.writeString(vault.resolve("other.md"), "# Other\n\nA short note about tea.\n");
    return vault;
  }

  @Test
  void aLongNoteIsFoundThroughItsSummaryInBothLanes() throws IOException {
    Path vault = vault();
    try (BrainIndex index = BrainIndex.open(IndexConfig.defaults(dir.resolve("data")))) {
      index.sync(List.of(vault));
      var retriever = new Retriever(index);
      for (Lane lane : List.of(Lane.BM25, Lane.VECTOR)) {
        var options = SearchOptions.builder().lanes(lane).limit(1).build();
        EvidenceRow top = retriever.search(QUERY, options).rows().getFirst();
        assertThat(top.sourceKey()).as(lane.toString()).isEqualTo("note:vault/island.md");
        assertThat(top.evidenceRole()).as(lane.toString()).isEqualTo("summary");
        assertThat(top.retrieval().lanes())
            .as(lane.toString())
            .singleElement()
            .satisfies(
                s -> {
                  assertThat(s.lane()).isEqualTo(lane);
                  assertThat(s.role()).isEqualTo("summary");
                });
        assertThat(top.signals()).as(lane.toString()).contains("summary");
      }
    }
  }

  @Test
  void withoutSummariesTheSameQueryFindsTheTextChunks() throws IOException {
    Path vault = vault();
    var config = IndexConfig.defaults(dir.resolve("data")).withSummaries(SummaryMode.NONE);
    try (BrainIndex index = BrainIndex.open(config)) {
      index.sync(List.of(vault));
      var retriever = new Retriever(index);
      var options = SearchOptions.builder().lanes(Lane.BM25).limit(1).build();
      EvidenceRow top = retriever.search(QUERY, options).rows().getFirst();
      assertThat(top.sourceKey()).isEqualTo("note:vault/island.md");
      assertThat(top.evidenceRole()).isEqualTo("raw");
      assertThat(top.signals()).doesNotContain("summary");
    }
  }
}
