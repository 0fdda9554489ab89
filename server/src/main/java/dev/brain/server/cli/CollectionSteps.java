package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.index.CollectionCheck;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionWatcher;
import dev.brain.index.CollectionsFile;
import dev.brain.index.IndexMetadata;
import dev.brain.index.SyncReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The collections of a data directory (its {@code brain.yaml}) and syncing them, for commands. */
final class CollectionSteps {
  private CollectionSteps() {}

  static CollectionsFile file(BrainCommand brain) {
    return CollectionsFile.of(brain.dataDir());
  }

  static List<CollectionRoot> read(BrainCommand brain) throws IOException {
    return file(brain).read();
  }

  /** Adds a collection after checking it against the others; returns it. */
  static CollectionRoot add(BrainCommand brain, CollectionRoot candidate) throws IOException {
    return add(brain, candidate, false);
  }

  /** {@link #add(BrainCommand, CollectionRoot)}; a single file may be the root if allowed. */
  static CollectionRoot add(BrainCommand brain, CollectionRoot candidate, boolean fileAllowed)
      throws IOException {
    List<CollectionRoot> existing = read(brain);
    CollectionCheck.checkNew(candidate, existing, fileAllowed);
    var all = new ArrayList<>(existing);
    all.add(candidate);
    file(brain).write(all);
    return candidate;
  }

  /** Syncs collections with progress and prints the summary; returns the exit code. */
  static int sync(
      BrainCommand brain,
      List<CollectionRoot> collections,
      boolean progress,
      boolean json,
      PrintWriter out,
      PrintWriter err)
      throws IOException {
    SyncReport report;
    IndexMetadata metadata;
    var unchanged =
        brain.served == null
            ? Optional.<SyncReport>empty()
            : brain.served.syncIfUnchanged(collections);
    if (unchanged.isPresent()) {
      // In a server: nothing changed, so the server's read-only brain answered without a writer.
      report = unchanged.get();
      metadata = brain.served.metadata();
    } else {
      try (var opened = brain.open()) {
        try (var bar = progress(brain, progress && !json, err)) {
          report = opened.sync(collections, bar);
        }
        metadata = opened.metadata();
      }
    }
    if (json) {
      out.println(PrettyJson.pretty(report));
    } else {
      SyncSummary.print(report, metadata, out);
    }
    return report.failed().isEmpty() ? 0 : BrainCommand.EXIT_ERROR;
  }

  /**
   * The progress of a sync: inside a server (a sync {@code bin/brain} sent there) lines on the
   * captured {@code err}, never a bar on the server's own terminal.
   */
  private static SyncProgress progress(BrainCommand brain, boolean enabled, PrintWriter err) {
    if (enabled && brain.served != null) {
      return SyncProgress.lines(err, SyncProgress.LINE_INTERVAL);
    }
    return SyncProgress.forCommand(enabled, err);
  }

  /**
   * Whether a watcher ({@code brain watch} or {@code brain serve --watch}) holds the index: it
   * follows {@code brain.yaml}, so a collection written there is synced (or removed) by it, and a
   * command of ours would only fail on the index's write lock.
   */
  static boolean watched(BrainCommand brain) {
    return CollectionWatcher.isWatching(brain.indexConfig());
  }

  /** How long a command waits for a watcher to carry out a change of {@code brain.yaml}. */
  static final Duration WATCHER_WAIT = Duration.ofMinutes(10);

  /**
   * Waits until the running watcher has synced collection {@code name} (since {@code after}) or,
   * when {@code present} is false, removed its records; prints what it is waiting for on {@code
   * err} and the outcome on {@code out}.
   *
   * @return the exit code: 0 done, 1 the watcher did not finish within {@link #WATCHER_WAIT}
   */
  static int awaitWatcher(
      BrainCommand brain,
      String name,
      boolean present,
      Instant after,
      PrintWriter out,
      PrintWriter err)
      throws IOException, InterruptedException {
    err.println(
        "brain: a running watcher (brain serve --watch or brain watch) holds the index and follows"
            + " brain.yaml; waiting for it to "
            + (present ? "sync" : "remove")
            + " '"
            + name
            + "'...");
    err.flush();
    long deadline = System.nanoTime() + WATCHER_WAIT.toNanos();
    try (var opened = Brain.openReadOnly(brain.config())) {
      while (System.nanoTime() < deadline) {
        opened.refresh();
        var status =
            opened.indexStatus().collections().stream()
                .filter(c -> c.name().equals(name))
                .findFirst();
        if (present
            && status.isPresent()
            && status.get().lastSyncAt() != null
            && !status.get().lastSyncAt().isBefore(after)) {
          out.println(
              "synced '"
                  + name
                  + "' through the running watcher: "
                  + status.get().records()
                  + " records, "
                  + status.get().chunks()
                  + " chunks");
          return 0;
        }
        if (!present && (status.isEmpty() || status.get().records() == 0)) {
          out.println("the running watcher removed the records of '" + name + "'");
          return 0;
        }
        Thread.sleep(250);
      }
    }
    err.println(
        "brain: the watcher has not finished within "
            + WATCHER_WAIT.toMinutes()
            + " minutes; brain.yaml names the change and the watcher carries it out: follow it"
            + " with `brain status`");
    return BrainCommand.EXIT_ERROR;
  }

  static String describe(CollectionRoot c) {
    return "'"
        + TerminalText.line(c.name())
        + "' ("
        + TerminalText.line(String.valueOf(c.root()))
        + ")";
  }

  static Path absolute(Path p) {
    return p.toAbsolutePath().normalize();
  }
}
