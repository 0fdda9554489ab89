package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.BrainConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The configuration and read-only brain of one data directory, read and opened on a thread of their
 * own while picocli builds and parses the command line: on a cold JVM each of the three takes a
 * good part of a {@code brain search}'s start (bench/qmd-pair), and they need nothing from the
 * parse but the data directory, which {@link EarlyArgs#readDataDir} finds. The command takes them
 * ({@link BrainCommand#config}, {@link BrainCommand#useExisting}) only when it reads the same
 * directory with no flag changing the configuration; anything that failed here is done again there,
 * so the command meets the same error at the same point as without this. One per process ({@code
 * Main}), never inside a server.
 */
final class OpenAhead {
  private static OpenAhead started; // guarded by OpenAhead.class

  private final Path dataDir;
  private final FutureTask<BrainConfig> config;
  private final FutureTask<Brain> brain;
  private boolean brainTaken; // guarded by OpenAhead.class

  private OpenAhead(Path dataDir) {
    this.dataDir = dataDir;
    this.config = new FutureTask<>(() -> BrainConfig.load(dataDir, System.getenv(), List.of()));
    this.brain =
        new FutureTask<>(
            () -> {
              config.run();
              var read = config.get();
              // No index: the command says how to create one (this fails, and it checks again).
              BrainCommand.requireIndex(read.indexConfig());
              return Brain.openReadOnly(read);
            });
  }

  /** Starts reading and opening {@code dataDir} on a daemon thread, once per process. */
  static synchronized void start(Path dataDir) {
    if (started != null) {
      return;
    }
    started = new OpenAhead(dataDir);
    Thread.ofPlatform().daemon().name("brain-open-ahead").start(started.brain);
  }

  /**
   * The configuration of {@code dataDir} with no flags, read ahead (waiting for it); empty when
   * none was started for this directory or reading it failed.
   */
  static Optional<BrainConfig> config(Path dataDir) {
    OpenAhead ahead;
    synchronized (OpenAhead.class) {
      ahead = started;
    }
    if (ahead == null || !ahead.dataDir.equals(dataDir)) {
      return Optional.empty();
    }
    return ahead.result(ahead.config);
  }

  /**
   * The brain opened ahead with {@code config} (the very configuration {@link #config} returned),
   * waiting for it; the caller owns it. Empty when none was opened with it, opening failed or it
   * was taken already.
   */
  static Optional<Brain> takeBrain(BrainConfig config) {
    OpenAhead ahead;
    synchronized (OpenAhead.class) {
      ahead = started;
      if (ahead == null || ahead.brainTaken) {
        return Optional.empty();
      }
      Optional<BrainConfig> read = ahead.result(ahead.config);
      if (read.isEmpty() || read.get() != config) {
        return Optional.empty();
      }
      ahead.brainTaken = true;
    }
    return ahead.result(ahead.brain);
  }

  private <T> Optional<T> result(FutureTask<T> task) {
    try {
      return Optional.ofNullable(task.get());
    } catch (ExecutionException e) {
      return Optional.empty(); // the command does it again and reports what failed
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** Forgets what was started; for tests. */
  static synchronized void reset() {
    started = null;
  }
}
