package dev.brain.server.cli;

import dev.brain.index.CollectionCheck;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import dev.brain.index.IndexMetadata;
import dev.brain.index.SyncReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The collections of a data directory (its {@code brain.yaml}) and syncing them, for commands. */
final class Collections {
  private Collections() {}

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
    try (var opened = brain.open()) {
      try (var bar = SyncProgress.forCommand(progress && !json, err)) {
        report = opened.sync(collections, bar);
      }
      metadata = opened.metadata();
    }
    if (json) {
      out.println(Json.pretty(report));
    } else {
      SyncSummary.print(report, metadata, out);
    }
    return report.failed().isEmpty() ? 0 : BrainCommand.EXIT_ERROR;
  }

  static String describe(CollectionRoot c) {
    return "'" + c.name() + "' (" + c.root() + ")";
  }

  static Path absolute(Path p) {
    return p.toAbsolutePath().normalize();
  }
}
