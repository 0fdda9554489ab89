package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.server.http.CliRunner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The read-only commands a running {@code brain serve} runs for {@code bin/brain} ({@code POST
 * /api/cli}): {@code search}, {@code get}, {@code status}, and {@code research} when no chat model
 * takes part. Each runs as the same picocli command as in a process of its own, with the server's
 * open brain and data directory and its output captured, so the bytes are the ones the CLI prints.
 * Anything else (another command, a usage error, help or version, a chat model) is refused and the
 * client runs it itself.
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
    refuseUnlessServable(cli, argv);
    int code = cli.execute(argv);
    return new Output(code, out.toString(), err.toString());
  }

  /** Parses {@code argv} once to see which command it is, without running anything. */
  private static void refuseUnlessServable(CommandLine cli, String[] argv) {
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
  }
}
