package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryChangesTest {

  @TempDir Path folder;

  private final AtomicLong now = new AtomicLong(1_000_000_000_000L);

  private DirectoryChanges changes() throws Exception {
    // The folder was last changed a minute before "now".
    Files.setLastModifiedTime(folder, FileTime.fromMillis(now.get() - 60_000));
    return new DirectoryChanges(folder, now::get);
  }

  @Test
  void aFolderUnchangedSinceACompletedCheckNeedsNoFullLook() throws Exception {
    var changes = changes();
    var first = changes.look();
    assertThat(first.mayHaveChanged()).isTrue(); // nothing checked yet
    first.checked();

    now.addAndGet(10);
    assertThat(changes.look().mayHaveChanged()).isFalse();
  }

  @Test
  void aNewEntryInTheFolderIsAChange() throws Exception {
    var changes = changes();
    changes.look().checked();

    Files.writeString(folder.resolve("segments_2"), "x"); // the folder's time becomes the real now
    now.addAndGet(10);
    assertThat(changes.look().mayHaveChanged()).isTrue();
  }

  @Test
  void aCheckThatDidNotCompleteIsNotTrusted() throws Exception {
    var changes = changes();
    changes.look(); // the full check failed or another thread was refreshing: not recorded
    now.addAndGet(10);
    assertThat(changes.look().mayHaveChanged()).isTrue();
  }

  @Test
  void aTimeAsRecentAsTheCheckIsNotTrustedForItMayStillMoveWithinItsTick() throws Exception {
    var changes = changes();
    Files.setLastModifiedTime(folder, FileTime.fromMillis(now.get() - 5));
    changes.look().checked();
    now.addAndGet(10);
    assertThat(changes.look().mayHaveChanged()).isTrue();

    // Once the folder has been quiet long enough, a check records it.
    now.addAndGet(DirectoryChanges.QUIET_MILLIS);
    changes.look().checked();
    now.addAndGet(10);
    assertThat(changes.look().mayHaveChanged()).isFalse();
  }

  @Test
  void anUnchangedTimeIsTrustedOnlyForAWhile() throws Exception {
    var changes = changes();
    changes.look().checked();
    now.addAndGet(DirectoryChanges.MAX_TRUST_MILLIS);
    assertThat(changes.look().mayHaveChanged()).isTrue();
  }

  @Test
  void aMissingFolderMayHaveChanged() throws Exception {
    var changes = new DirectoryChanges(folder.resolve("gone"), now::get);
    var look = changes.look();
    look.checked();
    assertThat(look.mayHaveChanged()).isTrue();
    assertThat(changes.look().mayHaveChanged()).isTrue();
  }

  @Test
  void aReadOnlyIndexSeesACommitMadeAfterItsViewWasFoundCurrent(@TempDir Path data)
      throws Exception {
    var config = IndexConfig.defaults(data);
    try (var writer = BrainIndex.open(config);
        var reader = BrainIndex.openReadOnly(config, null)) {
      // The index folder quiet for a minute: the reader's refreshes find it unchanged.
      Files.setLastModifiedTime(
          config.directory(), FileTime.fromMillis(System.currentTimeMillis() - 60_000));
      reader.refresh();
      reader.refresh();
      assertThat(reader.metadata().lastSyncAt()).isNull();

      writer.sync(List.of(Files.createDirectories(data.resolve("empty"))));

      reader.refresh();
      assertThat(reader.metadata().lastSyncAt())
          .isNotNull()
          .isEqualTo(writer.metadata().lastSyncAt());
    }
  }
}
