package dev.brain.research;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The index of {@code samples/vault} for the runner's tests: built once per test JVM under {@code
 * target/} (a warm re-run syncs incrementally and embeds nothing) and shared by every runner test
 * class; it stays open until the JVM exits.
 */
final class RunnerVault {
  static final Path VAULT = Path.of("..", "samples", "vault").toAbsolutePath().normalize();

  private static BrainIndex index;
  private static Retriever retriever;

  private RunnerVault() {}

  static synchronized BrainIndex index() {
    if (index == null) {
      Path dir = Path.of("target", "test-data", "runner-vault").toAbsolutePath();
      try {
        Files.createDirectories(dir);
        index = BrainIndex.open(IndexConfig.defaults(dir));
        var report = index.sync(List.of(VAULT));
        if (!report.failed().isEmpty()) {
          throw new IllegalStateException("sample vault sync failed: " + report.failed());
        }
        retriever = new Retriever(index);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return index;
  }

  static synchronized Retriever retriever() {
    index();
    return retriever;
  }

  /** A runner over the vault writing traces under {@code data} with exactly these secrets. */
  static ResearchRunner runner(Path data, List<String> secrets) {
    var traces = new TraceStore(data, Redactor.of(data, secrets), RetentionPolicy.defaults());
    return new ResearchRunner(index(), retriever(), traces);
  }
}
