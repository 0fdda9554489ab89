package dev.brain.server.http;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.index.IndexMismatchException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.util.IOUtils;

/**
 * A data directory holding the index of {@code samples/vault}, built once per test JVM under {@code
 * target/} and synced incrementally on later runs (unchanged records are skipped, so a warm run
 * costs well under a second); an index an older build of brain wrote there is rebuilt.
 */
public final class SampleVaultData {
  /** The sample vault of the repository. */
  public static final Path VAULT = Path.of("..", "samples", "vault").toAbsolutePath().normalize();

  private static Path dataDir;

  private SampleVaultData() {}

  /** The data directory with the synced sample-vault index. */
  public static synchronized Path dataDir() {
    if (dataDir == null) {
      Path dir = Path.of("target", "test-data", "sample-vault").toAbsolutePath();
      try {
        try {
          sync(dir);
        } catch (IndexMismatchException e) {
          // Cached by an older build of brain (another schema or key format): rebuild it.
          IOUtils.rm(dir);
          sync(dir);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      dataDir = dir;
    }
    return dataDir;
  }

  private static void sync(Path dir) throws IOException {
    Files.createDirectories(dir);
    try (var index = BrainIndex.open(IndexConfig.defaults(dir))) {
      var report = index.sync(List.of(VAULT));
      if (!report.failed().isEmpty()) {
        throw new IllegalStateException("sample vault sync failed: " + report.failed());
      }
    }
  }

  /**
   * A private data directory with a copy of the sample-vault index and nothing else, for tests that
   * write traces or case files and count them.
   */
  public static Path copyTo(Path target) {
    Path index = dataDir().resolve("index");
    try (var files = Files.walk(index)) {
      for (Path source : (Iterable<Path>) files::iterator) {
        Path copy = target.resolve("index").resolve(index.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(copy);
        } else if (!source.getFileName().toString().equals("write.lock")) {
          Files.copy(source, copy);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return target;
  }

  /** The default configuration of {@code dataDir}, serving on any free port. */
  public static dev.brain.BrainConfig onAnyPort(Path dataDir) {
    var config = dev.brain.BrainConfig.defaults(dataDir);
    return config.withServer(config.server().withPort(0));
  }
}
