package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.server.http.CliRunner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import picocli.CommandLine;

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

  /** What an idle command line writes to: nothing (its request's output is not kept alive). */
  private static final PrintWriter NOWHERE = new PrintWriter(java.io.Writer.nullWriter());

  /** The runner {@code brain serve} starts its server with. */
  static final ServerCommands INSTANCE = new ServerCommands();

  /**
   * The commands whose command lines are built once and then reused, one request at a time: their
   * objects hold nothing but picocli's options, which picocli sets back to their initial values
   * before each parse. ({@code index} keeps what it added while it runs, so it is built anew.)
   */
  private static final Set<String> REUSED = Set.of("search", "get", "status", "research");

  /** Command lines built and not in use, by the command they invoke. */
  private final Map<String, Queue<Prepared>> idle = new ConcurrentHashMap<>();

  ServerCommands() {}

  /**
   * A command line and its root command. A picocli {@link CommandLine} keeps the state of the parse
   * it runs, so one serves one request at a time: a request takes it from {@link #idle} and gives
   * it back when done, and concurrent requests build more. The arguments are parsed once: the
   * command line's execution strategy refuses what the server does not run before running the rest,
   * and a usage error found while parsing is refused rather than printed.
   */
  private static final class Prepared {
    final BrainCommand root;
    final CommandLine cli;
    final String invoked;

    // What the run under way found; reset before each.
    private boolean started;
    private boolean writes;
    private IllegalArgumentException refused;

    Prepared(BrainCommand root, CommandLine cli, String invoked) {
      this.root = root;
      this.cli = cli;
      this.invoked = invoked;
      CommandLine.IExecutionStrategy run = cli.getExecutionStrategy();
      CommandLine.IParameterExceptionHandler usage = cli.getParameterExceptionHandler();
      cli.setExecutionStrategy(
          parsed -> {
            // picocli prints what escapes its strategy: a refusal is kept for run() to throw.
            try {
              writes = refuseUnlessServable(parsed);
            } catch (IllegalArgumentException e) {
              refused = e;
              return EXIT_REFUSED;
            }
            started = true;
            return run.execute(parsed);
          });
      cli.setParameterExceptionHandler(
          (e, args) -> {
            if (started) {
              return usage.handleParseException(e, args); // a command's own usage error
            }
            refused =
                new IllegalArgumentException("not a valid brain command: " + e.getMessage(), e);
            return EXIT_REFUSED;
          });
    }

    void reset() {
      started = false;
      writes = false;
      refused = null;
    }
  }

  /** What the strategy and the parameter handler answer for a refused command; never sent. */
  private static final int EXIT_REFUSED = -1;

  @Override
  public Output run(Brain brain, List<String> args) {
    String[] argv = args.toArray(String[]::new);
    var out = new StringWriter();
    var err = new StringWriter();
    // Building a command model reflects over every option of the command: most of what a served
    // search spent outside the search itself, so a server builds each one once.
    Prepared prepared = take(brain, argv);
    var cli = prepared.cli;
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    prepared.reset();
    int code;
    try {
      try {
        code = cli.execute(argv);
      } finally {
        if (prepared.writes) {
          refresh(brain); // the server's readers see the sync's commit from the next request on
        }
      }
      if (prepared.refused != null) {
        throw prepared.refused;
      }
    } finally {
      giveBack(prepared);
    }
    return new Output(code, out.toString(), err.toString());
  }

  /** An idle command line for {@code argv}'s command, or a new one. */
  private Prepared take(Brain brain, String[] argv) {
    String invoked = EarlyArgs.asksVersion(argv) ? null : EarlyArgs.invoked(argv);
    Prepared prepared = null;
    if (invoked != null && REUSED.contains(invoked)) {
      prepared = idle.computeIfAbsent(invoked, k -> new ConcurrentLinkedQueue<>()).poll();
    }
    if (prepared == null) {
      var root = new BrainCommand();
      var cli = BrainCommand.commandLine(root, NOWHERE, NOWHERE, argv);
      prepared = new Prepared(root, cli, invoked);
    }
    prepared.root.served = brain;
    prepared.root.args = List.of(argv);
    return prepared;
  }

  private void giveBack(Prepared prepared) {
    prepared.cli.setOut(NOWHERE);
    prepared.cli.setErr(NOWHERE);
    if (prepared.invoked != null && REUSED.contains(prepared.invoked)) {
      prepared.root.served = null;
      idle.get(prepared.invoked).add(prepared);
    }
  }

  /** How many command lines of {@code command} are built and idle; for tests. */
  int idle(String command) {
    var queue = idle.get(command);
    return queue == null ? 0 : queue.size();
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
   * Refuses a parsed command line the server does not run, before anything runs.
   *
   * @return whether the command writes the index (a sync)
   */
  private static boolean refuseUnlessServable(CommandLine.ParseResult parsed) {
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
