package dev.brain.server.cli;

import dev.brain.index.CollectionRoot;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code brain add PATH}: remembers a folder as a collection and indexes it. */
@Command(
    name = "add",
    mixinStandardHelpOptions = true,
    description = {
      "Add a folder as a collection (kept in <data>/brain.yaml) and index it.",
      "Keys of its notes are note:NAME/PATH. Left out always: .obsidian/, .git/, .trash/,"
          + " node_modules/ and hidden files."
    })
final class AddCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "PATH", description = "The folder to add.")
  Path path;

  @Option(
      names = "--name",
      paramLabel = "NAME",
      description = "Collection name (default: the folder's name).")
  String name;

  @Option(
      names = "--exclude",
      paramLabel = "GLOB",
      arity = "1..*",
      description =
          "Leave out matching files or folders: a name glob (*.pdf, drafts), a folder glob"
              + " ending in / (archive/), or a path glob (journal/2019/**). Repeatable.")
  List<String> excludes = List.of();

  @Option(names = "--no-index", description = "Only remember the collection; index it later.")
  boolean noIndex;

  @Option(names = "--no-progress", description = "Show no progress.")
  boolean noProgress;

  @Override
  public Integer call() throws Exception {
    java.time.Instant asked = java.time.Instant.now();
    Path root = CollectionSteps.absolute(path);
    var candidate =
        new CollectionRoot(
            name != null ? name : CollectionRoot.defaultName(root),
            root,
            excludes,
            CollectionRoot.DEFAULT_MAX_FILE_BYTES);
    CollectionSteps.add(brain, candidate);
    var out = TerminalText.out(spec);
    out.println(
        "added collection "
            + CollectionSteps.describe(candidate)
            + " to "
            + CollectionSteps.file(brain).path());
    if (noIndex) {
      return 0;
    }
    if (CollectionSteps.watched(brain)) {
      return CollectionSteps.awaitWatcher(
          brain, candidate.name(), true, asked, out, TerminalText.err(spec));
    }
    return CollectionSteps.sync(
        brain, List.of(candidate), !noProgress, false, out, TerminalText.err(spec));
  }
}
