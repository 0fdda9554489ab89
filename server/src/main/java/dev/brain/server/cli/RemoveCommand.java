package dev.brain.server.cli;

import dev.brain.index.CollectionException;
import dev.brain.index.CollectionRoot;
import java.util.ArrayList;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code brain remove NAME}: forgets a collection and deletes its records from the index. */
@Command(
    name = "remove",
    mixinStandardHelpOptions = true,
    description = {
      "Remove a collection: its records leave the index and it leaves <data>/brain.yaml.",
      "The folder itself is not touched."
    })
final class RemoveCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "NAME", description = "The collection to remove.")
  String name;

  @Override
  public Integer call() throws Exception {
    var collections = CollectionSteps.read(brain);
    CollectionRoot target =
        collections.stream()
            .filter(c -> c.name().equals(name))
            .findFirst()
            .orElseThrow(
                () ->
                    new CollectionException(
                        "no collection named '" + name + "'; `brain collections` lists them"));
    var rest = new ArrayList<>(collections);
    rest.remove(target);
    if (CollectionSteps.watched(brain)) {
      // The watcher holds the index and follows brain.yaml: it deletes the records.
      CollectionSteps.file(brain).write(rest);
      TerminalText.out(spec)
          .println("removed collection " + CollectionSteps.describe(target) + " from brain.yaml");
      return CollectionSteps.awaitWatcher(
          brain,
          name,
          false,
          java.time.Instant.now(),
          TerminalText.out(spec),
          TerminalText.err(spec));
    }
    long removed = 0;
    if (java.nio.file.Files.isDirectory(brain.indexConfig().directory())) {
      // The records go first: if the index is busy, brain.yaml still names the collection.
      try (var opened = brain.open()) {
        removed = opened.removeCollection(name);
      }
    }
    CollectionSteps.file(brain).write(rest);
    TerminalText.out(spec)
        .println(
            "removed collection "
                + CollectionSteps.describe(target)
                + " and its "
                + removed
                + " records; the folder is untouched");
    return 0;
  }
}
