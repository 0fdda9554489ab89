package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.chunking.Chunk;
import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A docs page's {@code :::} admonitions are searchable text and leave no colons in a chunk. */
class ContainerSearchTest {

  @TempDir Path dir;

  @Test
  void theTextOfATipContainerIsFoundAndNoChunkHoldsItsMarkers() throws IOException {
    Path docs = Files.createDirectories(dir.resolve("docs"));
    Files.writeString(
        docs.resolve("pipelines.md"),
        """
        # Pipelines

        Commands pass structured data along a pipeline.

        :::tip[Security Tip]
        Unlike some shells, the glimmerwort table keeps its column types.
        :::

        ::: code-group
        ```sh [npm]
        npm add ferncastle
        ```
        :::
        """);
    Files.writeString(docs.resolve("other.md"), "# Other\n\nNothing of the kind in here.\n");
    try (BrainIndex index = BrainIndex.open(IndexConfig.defaults(dir.resolve("data")))) {
      var report = index.sync(List.of(docs));
      assertThat(report.skipped()).isEmpty();
      var retriever = new Retriever(index);
      var bm25 = SearchOptions.builder().lanes(Lane.BM25).build();
      for (String word : List.of("glimmerwort", "ferncastle")) {
        assertThat(retriever.search(word, bm25).rows())
            .as(word)
            .extracting(EvidenceRow::sourceKey)
            .containsExactly("note:docs/pipelines.md");
      }

      var detail = index.get("note:docs/pipelines.md").orElseThrow();
      assertThat(detail.chunks())
          .extracting(Chunk::text)
          .noneMatch(t -> t.contains(":::"))
          .anyMatch(
              t -> t.contains("> [!tip] Security Tip\n> Unlike some shells, the glimmerwort"));
    }
  }
}
