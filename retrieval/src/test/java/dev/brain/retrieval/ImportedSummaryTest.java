package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A summary a file gives itself (front matter {@code summary:} or {@code description:}, a JSONL
 * line's {@code summary}) is the record's summary: indexed as a summary chunk, found by both lanes
 * through words its text never uses, with the row's evidence role {@code summary}.
 */
class ImportedSummaryTest {

  @TempDir Path dir;

  @Test
  void aSummaryFromFrontMatterOrJsonlIsSearchedInBothLanes() throws IOException {
    Path vault = Files.createDirectories(dir.resolve("vault"));
    Files.writeString(
        vault.resolve("trip.md"),
        """
        ---
        summary: Notes on the quokkaberry harvest festival in Rottnest.
        ---
        # Trip

        We took the early ferry and cycled around the island all day.
        """);
    Files.writeString(
        vault.resolve("talk.md"),
        """
        ---
        description: A talk about zanthoria lichens on old stone walls.
        ---
        # Talk

        The speaker showed slides of walls near the harbour.
        """);
    Files.writeString(
        vault.resolve("papers.jsonl"),
        "{\"_id\": \"p1\", \"title\": \"Paper\", \"text\": \"We measure things carefully.\","
            + " \"summary\": \"A study of glimmerfen wetlands.\"}\n");
    Files.writeString(vault.resolve("other.md"), "# Other\n\nNothing about any of that here.\n");
    try (BrainIndex index = BrainIndex.open(IndexConfig.defaults(dir.resolve("data")))) {
      var report = index.sync(List.of(vault));
      assertThat(report.failed()).isEmpty();
      var retriever = new Retriever(index);
      for (var lane : List.of(Lane.BM25, Lane.VECTOR)) {
        var options = SearchOptions.builder().lanes(lane).limit(1).build();
        assertTop(retriever, "quokkaberry harvest festival", options, "note:vault/trip.md", lane);
        assertTop(retriever, "zanthoria lichens", options, "note:vault/talk.md", lane);
        assertTop(retriever, "glimmerfen wetlands", options, "doc:p1", lane);
      }
      assertThat(retriever.get("doc:p1").orElseThrow().record().summary())
          .isEqualTo("A study of glimmerfen wetlands.");
    }
  }

  private static void assertTop(
      Retriever retriever, String query, SearchOptions options, String key, Lane lane)
      throws IOException {
    EvidenceRow top = retriever.search(query, options).rows().getFirst();
    assertThat(top.sourceKey()).as(query + " in " + lane).isEqualTo(key);
    assertThat(top.evidenceRole()).as(query + " in " + lane).isEqualTo("summary");
  }
}
