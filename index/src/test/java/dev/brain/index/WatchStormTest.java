package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A storm of file operations under a watched collection (creates, edits, renames, deletes, folder
 * moves, with no pause between them) settles to an index that holds exactly the folder: no stale
 * record, none missing, every text the file's last version.
 */
class WatchStormTest {
  private static final Duration SETTLE = Duration.ofMinutes(4);

  @TempDir Path data;
  @TempDir Path folder;

  @Test
  @Timeout(600)
  void aStormOfOperationsSettlesToAnIndexThatHoldsExactlyTheFolder() throws Exception {
    var random = new Random(26);
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      files.add(write(folder.resolve("n" + i + ".md"), "seed " + i));
    }
    try (Embedder model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
        var index = BrainIndex.open(IndexConfig.defaults(data), model);
        var watcher =
            CollectionWatcher.start(
                index,
                List.of(CollectionRoot.of("notes", folder)),
                Duration.ofMillis(200),
                new CollectionWatcher.Listener() {})) {
      assertThat(watcher.watching()).isTrue();
      for (int op = 0; op < 200; op++) {
        Path target = files.isEmpty() ? null : files.get(random.nextInt(files.size()));
        switch (files.size() < 4 ? 0 : random.nextInt(6)) {
          case 0 -> {
            Path dir = folder.resolve("d" + random.nextInt(4));
            Files.createDirectories(dir);
            files.add(write(dir.resolve("c" + op + ".md"), "created at " + op));
          }
          case 1, 2 -> write(target, "edited at " + op);
          case 3 -> {
            Path renamed = target.resolveSibling("r" + op + ".md");
            Files.move(target, renamed);
            files.set(files.indexOf(target), renamed);
          }
          case 4 -> {
            Files.delete(target);
            files.remove(target);
          }
          default -> {
            Path dir = folder.resolve("d" + random.nextInt(4));
            if (Files.isDirectory(dir) && !Files.exists(folder.resolve("moved" + op))) {
              Path moved = folder.resolve("moved" + op);
              Files.move(dir, moved);
              files.replaceAll(f -> f.startsWith(dir) ? moved.resolve(dir.relativize(f)) : f);
            }
          }
        }
      }
      Map<String, String> expected = new TreeMap<>();
      for (Path f : files) {
        expected.put("note:notes/" + folder.relativize(f), Files.readString(f).strip());
      }
      long deadline = System.nanoTime() + SETTLE.toNanos();
      Map<String, String> indexed = Map.of();
      while (System.nanoTime() < deadline) {
        index.refresh();
        indexed = indexed(index, expected);
        if (indexed.equals(expected) && index.stats().records() == expected.size()) {
          break;
        }
        Thread.sleep(200);
      }
      assertThat(indexed).isEqualTo(expected);
      assertThat(index.stats().records()).isEqualTo(expected.size());
    }
  }

  private static Path write(Path file, String line) throws IOException {
    return Files.writeString(file, "# " + file.getFileName() + "\n\n" + line + "\n");
  }

  /** The indexed text of each expected key that is in the index. */
  private static Map<String, String> indexed(BrainIndex index, Map<String, String> expected) {
    Map<String, String> out = new TreeMap<>();
    for (String key : expected.keySet()) {
      try {
        index.get(key).ifPresent(d -> out.put(key, d.record().text().strip()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }
}
