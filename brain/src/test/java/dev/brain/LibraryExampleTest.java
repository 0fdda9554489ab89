package dev.brain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.research.run.RunResult;
import dev.brain.retrieval.SearchResult;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example of docs/library.md ("Use brain as a library"), kept compiling and passing. Keep the
 * body of {@link #example} identical to that page's snippet, and its imports to the page's.
 */
class LibraryExampleTest {

  @TempDir Path tmp;

  @Test
  void readmeExampleIndexesSearchesAndResearches() throws IOException {
    RunResult run = example(tmp.resolve("brain-data"), Path.of("../samples/vault"));

    assertThat(run.normalAnswer()).isTrue();
    assertThat(run.synthesis().citations()).isNotEmpty();
  }

  static RunResult example(Path dataDir, Path notes) throws IOException {
    try (Brain brain = Brain.open(dataDir)) {
      brain.index(notes);

      SearchResult hits = brain.search("espresso backflush");
      hits.rows().forEach(row -> System.out.println(row.sourceKey() + "  " + row.title()));

      RunResult run = brain.research("How often should I backflush the espresso machine?");
      System.out.println(run.synthesis().answer());
      System.out.println("trace: " + run.tracePath());
      return run;
    }
  }
}
