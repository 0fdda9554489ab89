package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.BrainConfigException;
import dev.brain.index.CollectionException;
import dev.brain.index.IndexConfig;
import dev.brain.retrieval.InvalidSearchException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;

/**
 * The {@code brain} command: global options and the subcommands. Exit codes: 0 ok, 1 error (the
 * command ran and failed), 2 usage (bad arguments or options).
 */
@Command(
    name = "brain",
    mixinStandardHelpOptions = true,
    versionProvider = BrainCommand.Version.class,
    description =
        "Local-first research engine for your notes, saved pages, PDFs, feeds and transcripts.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:ok", "1:error (the command failed; the message says why)", "2:usage"})
public final class BrainCommand {

  /** Exit code of a failed command. */
  public static final int EXIT_ERROR = 1;

  /** Exit code of a usage error. */
  public static final int EXIT_USAGE = 2;

  @Option(
      names = "--data",
      scope = ScopeType.INHERIT,
      paramLabel = "DIR",
      description = "Data directory (index, traces, config). Default: $BRAIN_HOME, else ~/.brain.")
  Path data;

  @Option(
      names = "--debug",
      scope = ScopeType.INHERIT,
      description = "Print stack traces of errors.")
  boolean debug;

  /**
   * The server's open brain when this command runs inside {@code brain serve} ({@link
   * ServerCommands}); null in a process of its own.
   */
  Brain served;

  /** The arguments this command line was run with, as typed after {@code brain}. */
  java.util.List<String> args = java.util.List.of();

  /**
   * The data directory: the server's when run inside one, else {@code --data}, else {@code
   * BRAIN_HOME}, else {@code ~/.brain}.
   */
  Path dataDir() {
    if (served != null) {
      return served.config().dataDir();
    }
    if (data != null) {
      return data.toAbsolutePath().normalize();
    }
    var home = System.getenv("BRAIN_HOME");
    if (home != null && !home.isBlank()) {
      return Path.of(home).toAbsolutePath().normalize();
    }
    return Path.of(System.getProperty("user.home"), ".brain");
  }

  /** Where the data directory came from: {@code flag --data}, {@code env BRAIN_HOME} or default. */
  String dataDirSource() {
    if (data != null) {
      return "flag --data";
    }
    var home = System.getenv("BRAIN_HOME");
    return home != null && !home.isBlank() ? "env BRAIN_HOME" : "default";
  }

  /**
   * The configuration of the data directory: its {@code brain.yaml}, the environment, then {@code
   * flags}, the command's options that set configuration values.
   */
  BrainConfig config(BrainConfig.Flag... flags) {
    Path dir = dataDir();
    if (flags.length == 0 && served == null) {
      var ahead = OpenAhead.config(dir);
      if (ahead.isPresent()) {
        return ahead.get();
      }
    }
    return BrainConfig.load(dir, System.getenv(), List.of(flags));
  }

  /** Opens the data directory's brain for reading and writing, creating the index if needed. */
  Brain open(BrainConfig.Flag... flags) throws IOException {
    return Brain.open(config(flags));
  }

  /**
   * Opens the data directory's brain read-only (a running {@code brain index} may write meanwhile);
   * fails with a message saying how to create the index when there is none yet.
   */
  Brain openExisting(BrainConfig.Flag... flags) throws IOException {
    var config = config(flags);
    requireIndex(config.indexConfig());
    return Brain.openReadOnly(config);
  }

  /**
   * The brain a read-only command that a server can run works with: the server's own when it runs
   * inside one (left open), else the data directory's opened read-only as by {@link #openExisting}.
   * Close the lease when done.
   */
  Lease useExisting(BrainConfig.Flag... flags) throws IOException {
    return useExisting(false, flags);
  }

  /**
   * As {@link #useExisting(BrainConfig.Flag...)}; with {@code embeds} (the command will embed a
   * query) a process of its own starts loading the embedding model before it opens the index, so
   * the two overlap.
   */
  Lease useExisting(boolean embeds, BrainConfig.Flag... flags) throws IOException {
    if (served != null) {
      return new Lease(served, false);
    }
    var config = config(flags);
    requireIndex(config.indexConfig());
    if (embeds) {
      dev.brain.models.Embedder.preload(config.indexConfig().model());
    }
    var ahead = OpenAhead.takeBrain(config);
    return new Lease(ahead.isPresent() ? ahead.get() : Brain.openReadOnly(config), true);
  }

  /** A top-level {@code index:} key in {@code brain.yaml}, which may name the embedding model. */
  private static final java.util.regex.Pattern INDEX_SECTION =
      java.util.regex.Pattern.compile("(?m)^[\"']?index[\"']?\\s*:");

  /**
   * Starts loading the embedding model in the background before the configuration is read (which
   * takes about as long as opening the index), when the model it will name is known without reading
   * it: {@code brain.yaml} has no {@code index:} section and {@code BRAIN_INDEX_MODEL} is unset or
   * names a bundled model. Otherwise the model starts loading once the configuration is read
   * ({@link #useExisting(boolean, BrainConfig.Flag...)}). A wrong guess costs only the work: the
   * index takes a preloaded embedder only of its own model. Nothing inside a server.
   */
  void preloadEmbedderEarly() {
    if (served != null) {
      return;
    }
    String named = System.getenv("BRAIN_INDEX_MODEL");
    var model =
        named == null || named.isBlank()
            ? java.util.Optional.of(IndexConfig.defaults(Path.of(".")).model())
            : dev.brain.models.EmbeddingModel.byId(named.strip());
    if (model.isEmpty()) {
      return;
    }
    Path file = dataDir().resolve(BrainConfig.FILE);
    try {
      if (Files.exists(file) && INDEX_SECTION.matcher(Files.readString(file)).find()) {
        return;
      }
    } catch (IOException | RuntimeException e) {
      return; // the configuration will say what is wrong with the file
    }
    dev.brain.models.Embedder.preload(model.get());
  }

  /**
   * Starts reading the configuration and opening the index ({@link OpenAhead}) before the command
   * line is even parsed when {@code args} are a {@code brain search} or {@code brain get} that will
   * run in this process, and loading the embedding model when the search will use the vector lane:
   * building the picocli model takes a good part of a cold start (picocli's classes are too old for
   * the class-data cache), and these overlap it. Only in a process of its own ({@code Main}); the
   * search command's own {@link #preloadEmbedderEarly} call is then a no-op.
   */
  public static void preloadBeforeParsing(String... args) {
    // The data directory is read once for both: a search that embeds here reads here.
    Optional<Path> read = EarlyArgs.readDataDir(args);
    read.ifPresent(OpenAhead::start);
    read.filter(d -> EarlyArgs.embeds(args))
        .ifPresent(
            dir -> {
              var root = new BrainCommand();
              root.data = dir;
              root.preloadEmbedderEarly();
            });
  }

  /**
   * A brain for the length of one command.
   *
   * @param brain the brain
   * @param owned whether closing the lease closes the brain
   */
  record Lease(Brain brain, boolean owned) implements AutoCloseable {
    @Override
    public void close() throws IOException {
      if (owned) {
        brain.close();
      }
    }
  }

  /** The index configuration of the data directory, for commands that create or update it. */
  IndexConfig indexConfig() {
    return config().indexConfig();
  }

  /**
   * The index configuration of the data directory, for read-only commands: fails with a message
   * saying how to create the index when there is none yet.
   */
  IndexConfig existingIndexConfig() {
    return requireIndex(indexConfig());
  }

  static IndexConfig requireIndex(IndexConfig config) {
    if (!Files.isDirectory(config.directory())) {
      throw new IllegalStateException(
          "no index at "
              + config.directory()
              + "; create one with 'brain add PATH' or 'brain index PATH' (or pass --data DIR of an"
              + " existing one)");
    }
    return config;
  }

  /** Runs the CLI with the given arguments and returns the exit code. */
  public static int run(String... args) {
    return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
  }

  /** Runs the CLI writing to the given streams; for tests. */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    try {
      return commandLine(new BrainCommand(), out, err, args).execute(args);
    } finally {
      // A command's last print (no println: `trace show --json`) must not stay in the buffer.
      out.flush();
      err.flush();
    }
  }

  /**
   * The subcommands, in the order help lists them. Building a picocli command model reflects over
   * every option of every command, so a run builds only the one it invokes ({@link #commandLine}).
   */
  static final List<String> SUBCOMMANDS =
      List.of(
          "help",
          "add",
          "collections",
          "remove",
          "index",
          "status",
          "watch",
          "stats",
          "config",
          "get",
          "search",
          "research",
          "trace",
          "chat",
          "eval",
          "serve",
          "demo",
          "mcp",
          "agent",
          "note");

  /**
   * A new command object of the subcommand {@code name}: a switch rather than a supplier each,
   * whose twenty lambdas a cold JVM linked on every start.
   */
  private static Object subcommand(String name) {
    return switch (name) {
      case "help" -> new CommandLine.HelpCommand();
      case "add" -> new AddCommand();
      case "collections" -> new CollectionsCommand();
      case "remove" -> new RemoveCommand();
      case "index" -> new IndexCommand();
      case "status" -> new StatusCommand();
      case "watch" -> new WatchCommand();
      case "stats" -> new StatsCommand();
      case "config" -> new ConfigCommand();
      case "get" -> new GetCommand();
      case "search" -> new SearchCommand();
      case "research" -> new ResearchCommand();
      case "trace" -> new TraceCommand();
      case "chat" -> new ChatCommand();
      case "eval" -> new EvalCommand();
      case "serve" -> new ServeCommand();
      case "demo" -> new DemoCommand();
      case "mcp" -> new McpCommand();
      case "agent" -> new AgentCommand();
      case "note" -> new NoteCommand();
      default -> throw new IllegalArgumentException("no subcommand " + name);
    };
  }

  /**
   * The command line of {@code root} for {@code args} writing to the given streams, with brain's
   * error handling: only the invoked subcommand is built, or all of them when that is not clear.
   */
  static CommandLine commandLine(
      BrainCommand root, PrintWriter out, PrintWriter err, String... args) {
    root.args = java.util.List.of(args);
    var cli = new CommandLine(root);
    String invoked = EarlyArgs.invoked(args);
    boolean versionOnly = EarlyArgs.asksVersion(args);
    for (String name : SUBCOMMANDS) {
      if (!versionOnly && (invoked == null || invoked.equals(name))) {
        cli.addSubcommand(name, subcommand(name));
      }
    }
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          var message = e.getMessage() == null ? e.toString() : e.getMessage();
          // Messages name files, keys and values the user or a file gave: never raw controls.
          commandLine.getErr().println("brain: " + TerminalText.text(message));
          if (root.debug) {
            e.printStackTrace(commandLine.getErr());
          }
          // Bad values found past parsing (missing path, unknown lane, empty query, a flag's value
          // out of range) are usage errors.
          if (e instanceof ParameterException
              || e instanceof InvalidSearchException
              || e instanceof BrainConfigException c && c.fromFlag()
              || e instanceof CollectionException
              || e instanceof IllegalArgumentException && isCollectionName(e)) {
            commandLine
                .getErr()
                .println("Try '" + commandLine.getCommandSpec().qualifiedName() + " --help'.");
            return EXIT_USAGE;
          }
          return EXIT_ERROR;
        });
    return cli;
  }

  private static boolean isCollectionName(Exception e) {
    return e.getMessage() != null && e.getMessage().startsWith("invalid collection name");
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"brain " + dev.brain.server.BuildInfo.current().describe()};
    }
  }
}
