package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

  @Test
  @Timeout(60)
  void aMarkerNamingALiveProcessThatHoldsNoLockIsNoWatcher() throws Exception {
    // A watcher killed with -9 leaves its file; its pid may then name an unrelated process.
    Process sleep = new ProcessBuilder("sleep", "60").start();
    try {
      Path marker = CollectionWatcher.marker(IndexConfig.defaults(data));
      Files.writeString(marker, sleep.pid() + "\n");
      assertThat(CollectionWatcher.isWatching(IndexConfig.defaults(data))).isFalse();
      Files.writeString(marker, ProcessHandle.current().pid() + "\n");
      assertThat(CollectionWatcher.isWatching(IndexConfig.defaults(data))).isFalse();
    } finally {
      sleep.destroy();
    }
  }

  @Test
  @Timeout(600)
  void theLastOfTwoWatchersToStopUnlocksTheMarkerEvenWhenTheFirstStartedStopsFirst()
      throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "reads this process's open files");
    var config = IndexConfig.defaults(data);
    try (Embedder model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
        var index = BrainIndex.open(config, model)) {
      var notes = List.of(CollectionRoot.of("notes", folder));
      var listener = new CollectionWatcher.Listener() {};
      var first = CollectionWatcher.start(index, notes, Duration.ofMillis(300), listener);
      var second = CollectionWatcher.start(index, notes, Duration.ofMillis(300), listener);
      Path marker = CollectionWatcher.marker(config).toRealPath();
      try {
        assertThat(openDescriptorsOf(marker)).isEqualTo(1);

        first.close(); // first in, first out: the one that opened the channel stops first
        assertThat(CollectionWatcher.isWatching(config)).isTrue();
        assertThat(openDescriptorsOf(marker)).isEqualTo(1);

        second.close();
        assertThat(CollectionWatcher.isWatching(config)).isFalse();
        assertThat(Files.exists(marker)).isFalse();
        assertThat(openDescriptorsOf(marker)).as("the locked channel is closed").isZero();
      } finally {
        first.close();
        second.close();
      }
    }
  }

  /** This process's open file descriptors on {@code file}, deleted or not (Linux's /proc). */
  private static long openDescriptorsOf(Path file) throws java.io.IOException {
    try (var fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.map(
              fd -> {
                try {
                  return Files.readSymbolicLink(fd).toString();
                } catch (java.io.IOException e) {
                  return ""; // closed since it was listed (the listing's own descriptor)
                }
              })
          .filter(t -> t.equals(file.toString()) || t.equals(file + " (deleted)"))
          .count();
    }
  }

  @Test
  @Timeout(120)
  void aMarkerLockedByAnotherProcessIsAWatcherUntilThatProcessEnds() throws Exception {
    Path marker = CollectionWatcher.marker(IndexConfig.defaults(data));
    Path source =
        Files.writeString(
            folder.resolve("Hold.java"),
            """
            import java.nio.channels.FileChannel;
            import java.nio.file.Path;
            import java.nio.file.StandardOpenOption;

            class Hold {
              public static void main(String[] args) throws Exception {
                try (var channel =
                        FileChannel.open(
                            Path.of(args[0]), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    var lock = channel.lock()) {
                  System.out.println("locked");
                  System.in.read();
                }
              }
            }
            """);
    Path launcher = Path.of(System.getProperty("java.home"), "bin", "java");
    Process holder =
        new ProcessBuilder(launcher.toString(), source.toString(), marker.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      var lines =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(
                  holder.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
      assertThat(lines.readLine()).isEqualTo("locked"); // null if the child died
      assertThat(CollectionWatcher.isWatching(IndexConfig.defaults(data))).isTrue();

      holder.getOutputStream().close(); // the child unlocks and exits
      assertThat(holder.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(Files.exists(marker)).isTrue();
      assertThat(CollectionWatcher.isWatching(IndexConfig.defaults(data))).isFalse();
    } finally {
      holder.destroyForcibly();
    }
  }

  @Test
  @Timeout(600)
  void afterTheFirstSyncOnlyTheChangedFilesAreReadAndAGoneFolderTakesItsNotes() throws Exception {
    Files.writeString(folder.resolve("one.md"), "# One\n\nfirst\n");
    Files.writeString(folder.resolve("two.md"), "# Two\n\nsecond\n");
    Path sub = Files.createDirectories(folder.resolve("sub"));
    Files.writeString(sub.resolve("three.md"), "# Three\n\nthird\n");
    var reports = new java.util.concurrent.LinkedBlockingQueue<SyncReport>();
    var failures = new AtomicInteger();
    var listener =
        new CollectionWatcher.Listener() {
          @Override
          public void synced(List<String> collections, SyncReport report) {
            reports.add(report);
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
      SyncReport first = reports.poll(EVENTUALLY.toSeconds(), TimeUnit.SECONDS);
      assertThat(first).isNotNull();
      assertThat(first.files()).as("the first sync catches up in full").isEqualTo(3);
      assertThat(watcher.collections()).containsExactly("notes");

      Files.writeString(folder.resolve("one.md"), "# One\n\nedited\n");
      eventually(() -> text(index, "note:notes/one.md").contains("edited"));
      Files.delete(sub.resolve("three.md"));
      Files.delete(sub);
      eventually(() -> !has(index, "note:notes/sub/three.md"));
      assertThat(has(index, "note:notes/two.md")).isTrue();

      var later = new java.util.ArrayList<SyncReport>();
      // The deletion is searchable at the sync's lexical commit, before its report arrives.
      eventually(
          () -> {
            reports.drainTo(later);
            return later.stream().mapToInt(SyncReport::deleted).sum() >= 1;
          });
      for (SyncReport r : later) {
        assertThat(r.files()).as("files read by a sync after an event").isLessThanOrEqualTo(1);
        assertThat(r.added() + r.updated() + r.unchanged() + r.deleted()).isLessThanOrEqualTo(1);
      }
      assertThat(later.stream().mapToInt(SyncReport::deleted).sum()).isEqualTo(1);
      assertThat(failures.get()).isZero();
    }
  }

  @Test
  void aChangedPathSyncKeepsTheRestOfTheCollectionAndItsEarlierIssues() throws Exception {
    Files.writeString(folder.resolve("a.md"), "# A\n\nfirst\n");
    Files.writeString(folder.resolve("b.md"), "# B\n\nsecond\n");
    Files.write(folder.resolve("big.md"), new byte[4096]);
    var notes = new CollectionRoot("notes", folder, List.of(), 1024);
    try (Embedder model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
        var index = BrainIndex.open(IndexConfig.defaults(data), model)) {
      index.syncCollections(List.of(notes), SyncListener.NONE);
      Files.writeString(folder.resolve("a.md"), "# A\n\nedited\n");
      Files.delete(folder.resolve("b.md"));

      var report =
          index.syncChanged(notes, java.util.Set.of(folder.resolve("a.md")), SyncListener.NONE);
      assertThat(report.files()).isEqualTo(1);
      assertThat(report.updated()).isEqualTo(1);
      assertThat(report.deleted()).as("b.md lies outside the changed paths").isZero();
      assertThat(text(index, "note:notes/a.md")).contains("edited");
      assertThat(has(index, "note:notes/b.md")).isTrue();

      report =
          index.syncChanged(notes, java.util.Set.of(folder.resolve("b.md")), SyncListener.NONE);
      assertThat(report.deleted()).isEqualTo(1);
      assertThat(has(index, "note:notes/b.md")).isFalse();

      var status = IndexStatus.of(index, List.of(notes), false).collections().getFirst();
      assertThat(status.files()).as("the walk still counts every file").isEqualTo(2);
      assertThat(status.skipped()).extracting(i -> i.file()).anyMatch(f -> f.endsWith("big.md"));
    }
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
