package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Progress where no bar can be drawn (a log, a pipe, CI): plain lines from a real sync. */
class SyncProgressTest {
  @TempDir Path tmp;

  private String sync(Duration interval) throws Exception {
    var vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(vault.resolve("a.md"), "# Espresso\n\nEighteen grams in, 36 out.\n");
    Files.writeString(vault.resolve("b.md"), "# Tempo runs\n\nTwenty minutes, comfortably hard.\n");
    Files.writeString(vault.resolve("c.bin"), "\0\0\0 not text");
    var out = new StringWriter();
    try (var index = BrainIndex.open(IndexConfig.defaults(tmp.resolve("data")));
        var progress = SyncProgress.lines(new PrintWriter(out), interval)) {
      index.sync(List.of(vault), progress);
    }
    return out.toString();
  }

  @Test
  void linesCountRecordsFilesAndEmbeddedChunks() throws Exception {
    List<String> lines = sync(Duration.ZERO).lines().toList();

    assertThat(lines).allSatisfy(l -> assertThat(l).startsWith("indexing: "));
    assertThat(lines).anySatisfy(l -> assertThat(l).contains("2/2 records"));
    assertThat(lines.getLast()).contains("2 chunks embedded", "chunks/s");
  }

  @Test
  void aSyncShorterThanTheIntervalPrintsNothing() throws Exception {
    assertThat(sync(Duration.ofHours(1))).isEmpty();
  }
}
