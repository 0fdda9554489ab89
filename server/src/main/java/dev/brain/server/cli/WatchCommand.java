package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.index.CollectionException;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionWatcher;
import dev.brain.index.SyncReport;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code brain watch}: follows every collection and syncs what changes, until stopped. */
@Command(
    name = "watch",
    mixinStandardHelpOptions = true,
    description = {
      "Follow every collection and sync each change (create, edit, rename, delete) into the"
          + " index; bursts of changes become one sync. Stop with Ctrl-C.",
      "brain.yaml is followed too: a collection `brain add` adds (or `brain remove` removes)"
          + " while this runs is synced and followed (or its records deleted).",
      "`brain serve --watch` does the same inside the server."
    })
final class WatchCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    var out = TerminalText.out(spec);
    List<CollectionRoot> collections = CollectionSteps.read(brain);
    try (var opened = brain.open()) {
      var followed = FollowedCollections.start(opened, collections, out);
      try {
        new CountDownLatch(1).await(); // until the process is stopped (Ctrl-C)
      } finally {
        followed.close();
      }
    }
    return 0;
  }

  /** Starts a watcher over {@code collections} that prints one line per sync. */
  static CollectionWatcher start(Brain brain, List<CollectionRoot> collections, PrintWriter out)
      throws Exception {
    if (collections.isEmpty()) {
      throw new CollectionException(
          "no collections to watch: add a folder with `brain add PATH` first");
    }
    var watcher = brain.watch(collections, lines(out));
    out.println(
        "watching "
            + collections.size()
            + " collection(s): "
            + TerminalText.line(
                String.join(", ", collections.stream().map(CollectionRoot::name).toList())));
    out.flush();
    return watcher;
  }

  /** One line on {@code out} per sync or failed sync, names and messages escaped. */
  static CollectionWatcher.Listener lines(PrintWriter out) {
    return new CollectionWatcher.Listener() {
      @Override
      public void synced(List<String> names, SyncReport r) {
        out.printf(
            java.util.Locale.ROOT,
            "synced %s: %d added, %d updated, %d deleted, %d unchanged, %d failed%n",
            TerminalText.line(String.join(", ", names)),
            r.added(),
            r.updated(),
            r.deleted(),
            r.unchanged(),
            r.failed().size());
        out.flush();
      }

      @Override
      public void failed(List<String> names, Exception e) {
        out.println(
            "sync of "
                + TerminalText.line(String.join(", ", names))
                + " failed: "
                + TerminalText.line(e.getMessage()));
        out.flush();
      }
    };
  }
}
