package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The summary {@code brain index} prints, from real syncs of a folder. */
class SyncSummaryTest {
  @TempDir Path tmp;

  private static String summary(BrainIndex index, Path vault) throws Exception {
    var out = new StringWriter();
    SyncSummary.print(index.sync(List.of(vault)), index.metadata(), new PrintWriter(out, true));
    return out.toString();
  }

  @Test
  void aSyncThatWritesChunksGivesItsRateAndAnUnchangedOneSaysHowManyFilesItRead() throws Exception {
    var vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(vault.resolve("a.md"), "# Espresso\n\nEighteen grams in, 36 out.\n");
    Files.writeString(vault.resolve("b.md"), "# Tempo runs\n\nTwenty minutes, comfortably hard.\n");
    try (var index = BrainIndex.open(IndexConfig.defaults(tmp.resolve("data")))) {
      String first = summary(index, vault);
      String again = summary(index, vault);

      assertThat(first)
          .contains("2 files: 2 added")
          .contains("chunks written (")
          .contains("chunks/s");
      assertThat(again)
          .contains("2 files: 0 added, 0 updated, 2 unchanged")
          .containsPattern("no chunk written; [0-2] of 2 files read, in [0-9]+\\.[0-9]{2} s")
          .doesNotContain("chunks/s");
    }
  }
}
