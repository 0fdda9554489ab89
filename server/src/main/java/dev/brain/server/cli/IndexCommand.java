package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.index.CollectionCheck;
import dev.brain.index.CollectionException;
import dev.brain.index.CollectionRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code brain index [PATH...]}: syncs every collection, or the collections holding PATH (adding a
 * folder that is none yet as a new collection).
 */
@Command(
    name = "index",
    mixinStandardHelpOptions = true,
    description = {
      "Sync the collections into the index: every collection without PATH, else the ones holding"
          + " each PATH; a folder that is no collection yet is added as one, named after it.",
      "Lexical first: records and their text are committed and searchable before the chunks are"
          + " embedded. Re-running is incremental: unchanged records are skipped without"
          + " re-embedding, changed ones replaced, records of vanished files deleted."
    })
final class IndexCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(
      arity = "0..*",
      paramLabel = "PATH",
      description = "Folders (or files inside a collection) to sync; default: every collection.")
  List<Path> paths = List.of();

  @Option(
      names = "--rebuild",
      description =
          "Delete the index and build it again from every collection (and PATH): for an index"
              + " built by an older brain.")
  boolean rebuild;

  @Option(
      names = "--no-progress",
      description =
          "Show no progress (a bar on a terminal; otherwise a line on stderr every 15 seconds;"
              + " none with --json).")
  boolean noProgress;

  @Option(names = "--json", description = "Print the sync report as JSON.")
  boolean json;

  @Option(
      names = "--local",
      description =
          "Sync in this process even when 'brain serve' runs on the data directory (by default"
              + " the running server syncs, without a JVM start here; its progress lines come"
              + " when the sync ends).")
  boolean local;

  /**
   * Whether a running server may run this sync for the client ({@code bin/brain} sends it there
   * unless {@code --local}): not a rebuild, which deletes the index the server reads, and no
   * relative PATH, which the server would resolve against its own working directory.
   */
  boolean servable() {
    return !rebuild && !local && paths.stream().allMatch(Path::isAbsolute);
  }

  /** The collections this run added to brain.yaml. */
  private final List<CollectionRoot> added = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    java.time.Instant asked = java.time.Instant.now();
    var out = TerminalText.out(spec);
    List<CollectionRoot> all = new ArrayList<>(CollectionSteps.read(brain));
    var targets = new LinkedHashSet<CollectionRoot>();
    for (Path path : paths) {
      targets.add(collectionOf(CollectionSteps.absolute(path), all));
    }
    if (paths.isEmpty() || rebuild) {
      if (all.isEmpty()) {
        throw new CollectionException(
            "no collections yet: add a folder with `brain add PATH` (or `brain index PATH`)");
      }
      targets.addAll(all);
    }
    if (CollectionSteps.watched(brain) && !rebuild) {
      // A running watcher holds the index and keeps every collection in sync; a new one named
      // here is in brain.yaml now, and the watcher syncs it.
      var err = TerminalText.err(spec);
      var report = json ? new java.io.PrintWriter(java.io.Writer.nullWriter()) : out;
      int code = 0;
      for (CollectionRoot target : added) {
        code =
            Math.max(
                code, CollectionSteps.awaitWatcher(brain, target.name(), true, asked, report, err));
      }
      if (json) {
        var answer = new java.util.LinkedHashMap<String, Object>();
        answer.put("followed_by_watcher", true);
        answer.put("added", added.stream().map(CollectionRoot::name).toList());
        answer.put("synced", code == 0);
        out.println(PrettyJson.pretty(answer));
      } else if (added.isEmpty()) {
        out.println(
            "every collection is followed by a running watcher (brain serve --watch or brain"
                + " watch), which syncs each change as it happens; `brain status` shows them");
      }
      return code;
    }
    if (rebuild) {
      Brain.deleteIndex(brain.config());
      out.println("deleted the index at " + brain.indexConfig().directory() + "; rebuilding");
    }
    return CollectionSteps.sync(
        brain, List.copyOf(targets), !noProgress, json, out, TerminalText.err(spec));
  }

  /** The collection holding {@code path}; a folder that is none yet becomes one. */
  private CollectionRoot collectionOf(Path path, List<CollectionRoot> all) throws Exception {
    if (!Files.exists(path)) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "no such file or folder: " + path);
    }
    var owner = CollectionCheck.owning(path, all);
    if (owner.isPresent()) {
      return owner.get();
    }
    // A file in no collection (a BEIR corpus.jsonl, say) becomes a collection of its own.
    CollectionRoot added = CollectionSteps.add(brain, CollectionRoot.of(path), true);
    all.add(added);
    this.added.add(added);
    if (!json) {
      TerminalText.out(spec)
          .println(
              "added collection "
                  + CollectionSteps.describe(added)
                  + " to "
                  + CollectionSteps.file(brain).path());
    }
    return added;
  }
}
