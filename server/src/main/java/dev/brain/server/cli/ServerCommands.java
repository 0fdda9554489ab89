package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.server.http.CliRunner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The commands a running {@code brain serve} runs for {@code bin/brain} ({@code POST /api/cli}):
 * {@code search}, {@code get}, {@code status}, {@code research} when no chat model takes part, and
 * {@code index} (not {@code --rebuild}, absolute paths only). A sync that finds nothing changed is
 * answered by the server's read-only brain ({@link Brain#syncIfUnchanged}), without a writer;
 * otherwise it opens the index for writing in the server for as long as it runs, as a {@code brain
 * index} process of its own would (so one running elsewhere makes it fail on the index's lock,
 * never both write), and the server's readers move to its commit when it ends. Each runs as the
 * same picocli command as in a process of its own, with the server's open brain and data directory
 * and its output captured, so the bytes are the ones the CLI prints. Anything else (another
 * command, a usage error, help or version, a chat model) is refused and the client runs it itself.
 */
final class ServerCommands implements CliRunner {

  /** The runner {@code brain serve} starts its server with. */
  static final ServerCommands INSTANCE = new ServerCommands();

  private ServerCommands() {}

  @Override
  public Output run(Brain brain, List<String> args) {
    String[] argv = args.toArray(String[]::new);
    var out = new StringWriter();
    var err = new StringWriter();
    var root = new BrainCommand();
    root.served = brain;
    // One command model per request, checked and then run: building it reflects over every option
    // of the command, a good part of a served search's CPU when it was built twice.
    var cli =
        BrainCommand.commandLine(
            root, new PrintWriter(out, true), new PrintWriter(err, true), argv);
    boolean writes = refuseUnlessServable(cli, argv);
    int code;
    try {
      code = cli.execute(argv);
    } finally {
      if (writes) {
        refresh(brain); // the server's readers see the sync's commit from the next request on
      }
    }
    return new Output(code, out.toString(), err.toString());
  }

  private static void refresh(Brain brain) {
    try {
      brain.refresh();
    } catch (java.io.IOException | RuntimeException e) {
      // The next request refreshes again; this one's answer stands.
      System.getLogger(ServerCommands.class.getName())
          .log(System.Logger.Level.WARNING, "cannot refresh the index view after a sync", e);
    }
  }

  /**
   * Parses {@code argv} once to see which command it is, without running anything.
   *
   * @return whether the command writes the index (a sync)
   */
  private static boolean refuseUnlessServable(CommandLine cli, String[] argv) {
    CommandLine.ParseResult parsed;
    try {
      parsed = cli.parseArgs(argv);
    } catch (ParameterException e) {
      throw new IllegalArgumentException("not a valid brain command: " + e.getMessage(), e);
    }
    if (parsed.isUsageHelpRequested()
        || parsed.isVersionHelpRequested()
        || !parsed.hasSubcommand()) {
      throw new IllegalArgumentException("the server runs only search, get, status and research");
    }
    var command = parsed.subcommand();
    if (command.isUsageHelpRequested()
        || command.isVersionHelpRequested()
        || command.hasSubcommand()) {
      throw new IllegalArgumentException("help is printed by the client");
    }
    Object user = command.commandSpec().userObject();
    if (user instanceof IndexCommand index) {
      if (!index.servable()) {
        throw new IllegalArgumentException(
            "the server syncs neither --rebuild, --local nor a relative PATH");
      }
      return true;
    }
    boolean servable =
        user instanceof SearchCommand
            || user instanceof GetCommand
            || user instanceof StatusCommand
            || user instanceof ResearchCommand research && research.servable();
    if (!servable) {
      throw new IllegalArgumentException(
          "the server runs only search, get, status and research without a chat model, not '"
              + command.commandSpec().name()
              + "'");
    }
    return false;
  }
}
