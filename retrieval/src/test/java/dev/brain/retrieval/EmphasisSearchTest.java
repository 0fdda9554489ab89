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

/** Words in Markdown emphasis are found by keyword search, whichever marker wraps them. */
class EmphasisSearchTest {

  @TempDir Path dir;

  @Test
  void theKeywordLaneFindsAWordInEveryFormOfEmphasis() throws IOException {
    Path vault = Files.createDirectories(dir.resolve("vault"));
    Files.writeString(
        vault.resolve("words.md"),
        """
        # Rare words

        A _quixotry_ of a plan, a *velvetine* finish, a __zephyrine__ breeze and a
        **glimmerous** lake.
        """);
    Files.writeString(vault.resolve("other.md"), "# Other\n\nNothing rare in here at all.\n");
    try (BrainIndex index = BrainIndex.open(IndexConfig.defaults(dir.resolve("data")))) {
      index.sync(List.of(vault));
      var retriever = new Retriever(index);
      var bm25 = SearchOptions.builder().lanes(Lane.BM25).build();
      for (String word : List.of("quixotry", "velvetine", "zephyrine", "glimmerous")) {
        assertThat(retriever.search(word, bm25).rows())
            .as(word)
            .extracting(EvidenceRow::sourceKey)
            .containsExactly("note:vault/words.md");
      }
    }
  }
}
