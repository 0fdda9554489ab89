package dev.brain.server.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code brain collections}: lists the collections of the data directory. */
@Command(
    name = "collections",
    mixinStandardHelpOptions = true,
    description = "List the collections (name, root, excludes) kept in <data>/brain.yaml.")
final class CollectionsCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--json", description = "Print the collections as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    var out = TerminalText.out(spec);
    var collections = CollectionSteps.read(brain);
    if (json) {
      out.println(PrettyJson.pretty(collections));
      return 0;
    }
    if (collections.isEmpty()) {
      out.println("no collections yet; add a folder with `brain add PATH`");
      return 0;
    }
    for (var c : collections) {
      out.println(TerminalText.line(c.name()) + "  " + TerminalText.line(String.valueOf(c.root())));
      if (!c.excludes().isEmpty()) {
        out.println("  excludes: " + TerminalText.line(String.join(", ", c.excludes())));
      }
    }
    return 0;
  }
}
