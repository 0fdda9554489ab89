package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The watcher over a real folder: changes reach the index; a burst of writes is coalesced. */
class CollectionWatcherTest {

  private static final Duration EVENTUALLY = Duration.ofMinutes(3);

  @TempDir Path data;
  @TempDir Path folder;

  @Test
  @Timeout(600)
  void createsEditsRenamesNewFoldersAndDeletesReachTheIndex() throws Exception {
    Files.writeString(folder.resolve("a.md"), "# A\n\nfirst\n");
    var syncs = new AtomicInteger();
    var failures = new AtomicInteger();
    var listener =
        new CollectionWatcher.Listener() {
          @Override
          public void synced(List<String> collections, SyncReport report) {
            syncs.incrementAndGet();
          }

          @Override
          public void failed(List<String> collections, Exception error) {
            failures.incrementAndGet();
          }
        };
    try (Embedder model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
        var index = BrainIndex.open(IndexConfig.defaults(data), model);
        var watcher =
            CollectionWatcher.start(
                index,
                List.of(CollectionRoot.of("notes", folder)),
                Duration.ofMillis(300),
                listener)) {
      assertThat(watcher.watching()).isTrue();
      assertThat(CollectionWatcher.isWatching(IndexConfig.defaults(data))).isTrue();
      eventually(() -> has(index, "note:notes/a.md"));

      Path sub = Files.createDirectories(folder.resolve("new/deeper"));
      Files.writeString(sub.resolve("b.md"), "# B\n\nin a folder made after the start\n");
      eventually(() -> has(index, "note:notes/new/deeper/b.md"));
      Files.writeString(sub.resolve("c.md"), "# C\n\nwritten inside that new folder later\n");
      eventually(() -> has(index, "note:notes/new/deeper/c.md"));

      Files.move(folder.resolve("a.md"), folder.resolve("renamed.md"));
      eventually(() -> has(index, "note:notes/renamed.md") && !has(index, "note:notes/a.md"));

      Files.delete(sub.resolve("b.md"));
      eventually(() -> !has(index, "note:notes/new/deeper/b.md"));

      int before = syncs.get();
      Path storm = folder.resolve("storm.md");
      for (int i = 0; i < 20; i++) {
        Files.writeString(storm, "# Storm\n\nsave number " + i + "\n");
      }
      eventually(() -> text(index, "note:notes/storm.md").contains("save number 19"));
      assertThat(syncs.get() - before).as("syncs for 20 saves").isLessThan(20);
      assertThat(failures.get()).isZero();
    }
    assertThat(CollectionWatcher.isWatching(IndexConfig.defaults(data))).isFalse();
  }

  private static boolean has(BrainIndex index, String key) {
    try {
      return index.get(key).isPresent();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String text(BrainIndex index, String key) {
    try {
      return index.get(key).map(d -> d.record().text()).orElse("");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void eventually(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + EVENTUALLY.toNanos();
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("condition not met within " + EVENTUALLY);
  }
}
