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

/** An MDX docs page is searchable by the Markdown inside its components, not by their tags. */
class MdxSearchTest {

  @TempDir Path dir;

  @Test
  void theCodeInATabItemAndTheTextOfAnAsideAreFoundAndNoTagIsInAChunk() throws IOException {
    Path docs = Files.createDirectories(dir.resolve("docs"));
    Files.writeString(
        docs.resolve("setup.mdx"),
        """
        ---
        title: Project setup
        ---

        import { Tabs, TabItem, Aside } from '@astrojs/starlight/components';

        {/* TODO: more package managers */}
        Install the command line tool first.

        <Tabs>
          <TabItem label="npm">
            ```sh
            npm install --save-dev quillfrost-cli
            ```
          </TabItem>
        </Tabs>

        <Aside type="tip" title="Offline">
        The marrowlight cache lets the tool work without a network.
        </Aside>
        """);
    Files.writeString(docs.resolve("other.md"), "# Other\n\nNothing of the kind in here.\n");
    try (BrainIndex index = BrainIndex.open(IndexConfig.defaults(dir.resolve("data")))) {
      var report = index.sync(List.of(docs));
      assertThat(report.skipped()).isEmpty();
      var retriever = new Retriever(index);
      var bm25 = SearchOptions.builder().lanes(Lane.BM25).build();
      for (String word : List.of("quillfrost", "marrowlight")) {
        assertThat(retriever.search(word, bm25).rows())
            .as(word)
            .extracting(EvidenceRow::sourceKey)
            .containsExactly("note:docs/setup.mdx");
      }
      assertThat(retriever.search("TabItem Aside starlight", bm25).rows()).isEmpty();

      var detail = index.get("note:docs/setup.mdx").orElseThrow();
      assertThat(detail.record().title()).isEqualTo("Project setup");
      assertThat(detail.chunks())
          .extracting(Chunk::text)
          .noneMatch(t -> t.contains("<") || t.contains("import") || t.contains("TODO"));
    }
  }
}
