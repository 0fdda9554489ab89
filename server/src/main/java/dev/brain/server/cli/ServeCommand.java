package dev.brain.server.cli;

import dev.brain.BrainConfig;
import dev.brain.ServerSettings;
import dev.brain.server.http.BrainServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code brain serve}: the web Chat, Search and the JSON/SSE API over the data directory. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the web Chat (the default page), Search and the JSON/SSE API over the index.",
      "Binds 127.0.0.1 unless told otherwise; reading needs no authentication, writing needs the"
          + " token of <data>/server.json, or in a browser the login link printed at start."
          + " Read-only: a running 'brain index' may update the index meanwhile (with --watch the"
          + " server syncs changed collections itself). Stop with Ctrl-C.",
      "One server per data directory: it takes the place of a server a command started in the"
          + " background, and refuses (naming it) when another 'brain serve' runs there."
    })
final class ServeCommand implements Callable<Integer> {
  // Held strongly: java.util.logging keeps only weak references to configured loggers.
  private static final java.util.logging.Logger HELIDON_LOG =
      java.util.logging.Logger.getLogger("io.helidon");

  @ParentCommand BrainCommand brain;

  @Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin Listen listen = new Listen();

  @Option(
      names = "--watch",
      description =
          "Also follow every collection and sync each change; searches see it once committed.")
  boolean watch;

  @Option(
      names = "--exit-when-idle",
      description = "Exit after server.idle-exit (15 min) without a request.")
  boolean exitWhenIdle;

  @Option(names = "--background", hidden = true, description = "Started by a CLI command.")
  boolean background;

  @Override
  public Integer call() throws Exception {
    var config = listen.apply(brain, spec.commandLine());
    Duration idleExit = exitWhenIdle ? config.server().idleExit() : null;
    Path startedFor = background ? brain.dataDir() : null;
    var out = spec.commandLine().getOut();
    var err = spec.commandLine().getErr();
    if (!watch) {
      brain.existingIndexConfig(); // a clear "run brain index first" when there is none
    }
    ServerLock lock;
    try {
      lock = ServerLock.claim(config.dataDir(), background, err);
    } catch (ServerLock.ServerLockException e) {
      if (startedFor != null) {
        BackgroundServer.startDone(startedFor); // the server there answers the next commands
      }
      throw e;
    }
    try (lock) {
      if (!watch) {
        serve(config, out, err, idleExit, startedFor);
        return 0;
      }
      // The watcher writes through a brain of its own; the server's read-only one follows its
      // commits.
      try (var writer = brain.open()) {
        var followed = FollowedCollections.start(writer, CollectionSteps.read(brain), out);
        try {
          serve(config, out, err, idleExit, startedFor);
        } finally {
          followed.close();
        }
      }
    }
    return 0;
  }

  /** Where to listen: options shared by {@code serve} and {@code demo}. */
  static final class Listen {
    @Option(
        names = "--host",
        paramLabel = "HOST",
        description = "Address to bind. Default: 127.0.0.1 (or server.host in brain.yaml).")
    String host;

    @Option(
        names = "--port",
        paramLabel = "PORT",
        description = "Port to listen on; 0 picks a free one. Default: 8742.")
    Integer port;

    @Option(
        names = "--allow-remote",
        description =
            "Allow binding a non-loopback address; needs server.token (clients send it as a"
                + " bearer token).")
    boolean allowRemote;

    /** The data directory's configuration with these options applied and the host checked. */
    BrainConfig apply(BrainCommand brain, CommandLine commandLine) {
      var flags = new java.util.ArrayList<BrainConfig.Flag>();
      if (host != null) {
        flags.add(new BrainConfig.Flag("server.host", host, "--host"));
      }
      if (port != null) {
        if (port < 0 || port > 65_535) {
          throw new ParameterException(commandLine, "--port must be 0..65535, got " + port);
        }
        flags.add(new BrainConfig.Flag("server.port", String.valueOf(port), "--port"));
      }
      if (allowRemote) {
        flags.add(new BrainConfig.Flag("server.allow-remote", "true", "--allow-remote"));
      }
      BrainConfig config = brain.config(flags.toArray(BrainConfig.Flag[]::new));
      var out = config.server();
      boolean loopback;
      try {
        loopback = out.bindsLoopbackOnly();
      } catch (IllegalArgumentException e) {
        throw new ParameterException(commandLine, e.getMessage());
      }
      if (!loopback && !out.allowRemote()) {
        throw new ParameterException(
            commandLine,
            "--host "
                + out.host()
                + " is not a loopback address: anyone who can reach it could read your corpus."
                + " Add --allow-remote and set server.token if that is what you want.");
      }
      if (out.allowRemote() && out.token() == null) {
        throw new ParameterException(
            commandLine,
            "--allow-remote needs a token: set server.token in brain.yaml (or BRAIN_SERVER_TOKEN) to a"
                + " secret of at least "
                + ServerSettings.MIN_TOKEN_CHARS
                + " characters; clients send it as 'Authorization: Bearer <token>'");
      }
      return config;
    }
  }

  /**
   * Takes the data directory's {@link ServerLock}, starts the server, prints its URL and blocks
   * until the process is stopped.
   */
  static void serve(BrainConfig config, PrintWriter out, PrintWriter err)
      throws IOException, InterruptedException {
    var lock = ServerLock.claim(config.dataDir(), false, err);
    try {
      serve(config, out, err, null, null);
    } finally {
      lock.close();
    }
  }

  /**
   * Starts the server (its caller holds the data directory's {@link ServerLock}), prints its URL
   * and blocks until the process is stopped, or until it has had no request for {@code idleExit}
   * (when not null); a server started in the background for {@code startedFor}'s commands says it
   * is up by dropping their start mark.
   */
  static void serve(
      BrainConfig config, PrintWriter out, PrintWriter err, Duration idleExit, Path startedFor)
      throws IOException, InterruptedException {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "error").equals("error")) {
      HELIDON_LOG.setLevel(java.util.logging.Level.WARNING); // start-up chatter is not for users
    }
    var settings = config.server();
    if (!settings.bindsLoopbackOnly()) {
      err.println(
          "brain: WARNING: listening on "
              + settings.host()
              + ", reachable from other machines: every /api/ and /mcp request needs"
              + " server.token, but the pages (Chat, Search, records) need none.");
    }
    // A taken port is a ServerStartException naming it and --port: one line, exit code 1.
    BrainServer server = BrainServer.start(config, ServerCommands.INSTANCE);
    var advertisement = ServerAdvertisement.publish(config.dataDir(), server, startedFor != null);
    if (startedFor != null) {
      BackgroundServer.startDone(startedFor);
    }
    if (idleExit != null) {
      exitWhenIdle(server, idleExit, out);
    }
    Thread hook = new Thread(() -> closeAll(advertisement, server), "brain-serve-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    out.println("brain: serving at " + server.url() + "  (Search at " + server.url() + "search)");
    out.flush();
    if (startedFor == null) {
      printChatLink(server, err);
    }
    out.println("brain: press Ctrl-C to stop");
    out.flush();
    try {
      server.awaitShutdown();
    } finally {
      closeAll(advertisement, server);
    }
  }

  /**
   * The Chat's link for the owner's terminal: the login link, which signs the browser in so the
   * Chat may write too. Never in a background server's log, which is not private: the link is as
   * good as the token. With {@code server.token} set every API call needs that token instead.
   */
  private static void printChatLink(BrainServer server, PrintWriter err) {
    if (server.config().server().token() != null) {
      err.println(
          "brain: open the Chat once as "
              + server.url()
              + "#token=<server.token>  (server.token is set: the page keeps it for the tab)");
    } else {
      err.println(
          "brain: open the Chat at "
              + server.loginUrl()
              + "  (the link signs your browser in, so the Chat may write too; keep it to"
              + " yourself)");
    }
    err.flush();
  }

  /** Closes the server once it has had no request for {@code idle}. */
  private static void exitWhenIdle(BrainServer server, Duration idle, PrintWriter out) {
    Thread.ofPlatform()
        .daemon()
        .name("brain-idle-exit")
        .start(
            () -> {
              try {
                while (server.idle().compareTo(idle) < 0) {
                  Thread.sleep(Math.min(5_000, Math.max(100, idle.toMillis() / 10)));
                }
                out.println("brain: no request for " + idle + "; stopping");
                out.flush();
                server.close();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
  }

  private static void closeAll(ServerAdvertisement.Published advertisement, BrainServer server) {
    advertisement.close();
    server.close();
  }
}
