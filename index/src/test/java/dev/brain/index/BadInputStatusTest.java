package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
 * What a sync leaves out of a file is kept for {@code brain status}, not only printed by the run: a
 * bad JSONL line, and a second file whose name differs from a first only in bytes that are not
 * UTF-8 (one key for both), named with both paths.
 */
class BadInputStatusTest {

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

  @Test
  void badLinesAndKeyCollisionsAreInTheCollectionsStatusOnEverySync() throws Exception {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(
        vault.resolve("docs.jsonl"),
        "{\"_id\": \"a\", \"text\": \"fine\"}\n{\"_id\": \"b\", \"text\": \"x\"} trailing\n");
    boolean named =
        writeWithRawName(vault, "caf\\351.md") && writeWithRawName(vault, "caf\\350.md");
    assumeTrue(named, "this file system takes no file names that are not UTF-8");

    try (var index = BrainIndex.open(IndexConfig.defaults(data), model)) {
      for (int sync = 0; sync < 2; sync++) {
        SyncReport report = index.sync(List.of(vault));
        assertThat(report.warnings()).hasSize(2);
        var warnings = index.collections().getFirst().warnings();
        assertThat(warnings)
            .anySatisfy(
                w -> {
                  assertThat(w.file()).isEqualTo(vault.resolve("docs.jsonl").toString());
                  assertThat(w.reason()).contains("docs.jsonl:2:", "text after the JSON value");
                });
        assertThat(warnings)
            .anySatisfy(
                w -> {
                  // The walk orders names alike by their bytes: E8 before E9.
                  assertThat(w.file()).isEqualTo(vault + "/caf%E9.md");
                  assertThat(w.reason())
                      .contains("not indexed: its key note:vault/caf")
                      .contains(vault + "/caf%E8.md (indexed)", vault + "/caf%E9.md")
                      .contains("not UTF-8");
                });
      }
      assertThat(index.get("doc:b")).isEmpty();
      assertThat(index.stats().records()).isEqualTo(2); // doc:a and one of the two notes
    }
  }

  /** Writes a file whose name is given as shell printf escapes (raw bytes Java cannot name). */
  private static boolean writeWithRawName(Path dir, String printfName)
      throws IOException, InterruptedException {
    var sh =
        new ProcessBuilder(
                "sh", "-c", "printf '# Cafe\\n\\nA note.\\n' > \"$(printf '" + printfName + "')\"")
            .directory(dir.toFile())
            .redirectErrorStream(true);
    Process p = sh.start();
    p.getInputStream().readAllBytes();
    return p.waitFor() == 0;
  }
}
