package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a real child JVM with SIGKILL in the middle of a sync and checks that the index opens at
 * its last commit, whole, and that a re-run completes it.
 */
class CrashSafetyTest {

  private static final int NOTES = 400;

  @TempDir Path data;
  @TempDir Path vault;

  @Test
  @Timeout(180)
  void aSyncKilledMidwayLeavesAWholeIndexAndAReRunCompletesIt() throws Exception {
    writeNotes(vault, NOTES);

    List<String> output =
        SyncChild.runAndKill(
            data,
            vault,
            lines ->
                lines.getLast().startsWith("committed ") && !lines.getLast().equals("committed 0"));
    assertThat(output)
        .as("child output (stderr in the surefire report)")
        .anyMatch(l -> l.startsWith("committed "));
    assertThat(output).noneMatch(l -> l.startsWith("done"));

    try (Embedder embedder = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
        var index = BrainIndex.open(IndexConfig.defaults(data), embedder)) {
      int survived = IndexInvariants.assertWhole(index);
      assertThat(survived).as("records committed before the kill").isBetween(1, NOTES - 1);

      SyncReport rerun = index.sync(List.of(vault));

      assertThat(rerun.unchanged()).isEqualTo(survived);
      assertThat(rerun.added()).isEqualTo(NOTES - survived);
      assertThat(rerun.updated()).isZero();
      assertThat(rerun.deleted()).isZero();
      assertThat(IndexInvariants.assertWhole(index)).isEqualTo(NOTES);
      assertThat(index.stats().records()).isEqualTo(NOTES);
      assertThat(index.metadata().lastSyncAt()).isNotNull();
    }
  }

  /** Tiny Markdown notes (one chunk each) in a few folders. */
  static void writeNotes(Path vault, int count) throws IOException {
    String[] topics = {"gardening", "astronomy", "cooking", "cycling", "jazz"};
    for (int i = 0; i < count; i++) {
      String topic = topics[i % topics.length];
      Path file = vault.resolve(topic).resolve("note-" + i + ".md");
      Files.createDirectories(file.getParent());
      Files.writeString(
          file,
          "# Note "
              + i
              + "\n\nA short note number "
              + i
              + " about "
              + topic
              + ", written for the crash test. #"
              + topic
              + "\n");
    }
  }
}
