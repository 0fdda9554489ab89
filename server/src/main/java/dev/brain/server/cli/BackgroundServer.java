package dev.brain.server.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts {@code brain serve} in the background for the commands after this one: the first {@code
 * search}, {@code get}, {@code status} or {@code research} on a data directory with no server
 * answers in its own process and leaves a server behind (loopback, a random token, its log in
 * {@code <data>/server.log}); it exits after {@code server.idle-exit} (15 minutes) without a
 * request. Every later call goes through it ({@code bin/brain} with curl, no JVM). {@code --local}
 * or {@code server.auto-start: false} (env {@code BRAIN_SERVER_AUTO_START=false}) opt out.
 *
 * <p>Only a {@code brain} started by its launcher starts one (the launcher names itself in {@code
 * BRAIN_LAUNCHER}); a library user or a test never gets a process it did not ask for. It never
 * makes a second server: none starts while a server holds the data directory's {@link ServerLock},
 * and one that finds it taken when it starts exits again.
 */
final class BackgroundServer {
  /** The log of a background server, in the data directory. */
  static final String LOG = "server.log";

  /** Marks a start under way, so two commands at once start one server. */
  private static final String STARTING = "server.starting";

  /** A start mark older than this belongs to a start that failed. */
  private static final Duration STALE_START = Duration.ofMinutes(2);

  private BackgroundServer() {}

  /** Starts a background server for {@code brain}'s data directory when wanted and possible. */
  static void startIfWanted(BrainCommand brain, PrintWriter err) {
    String launcher = System.getenv("BRAIN_LAUNCHER");
    if (launcher == null || !Files.isExecutable(Path.of(launcher))) {
      return;
    }
    try {
      if (!brain.config().server().autoStart()
          || !Files.isDirectory(brain.indexConfig().directory())
          // A server holds the data directory (starting, or not answering this client): one only.
          || ServerLock.holder(brain.dataDir()).isPresent()
          || !claimStart(brain.dataDir())) {
        return;
      }
      Process process = spawn(launcher, brain.dataDir());
      err.println(
          "brain: started a server in the background (pid "
              + process.pid()
              + ") so the next commands answer at once; it exits after "
              + minutes(brain.config().server().idleExit())
              + " without a request (server.auto-start: false turns this off)");
      err.flush();
    } catch (IOException | RuntimeException e) {
      // No server: this command has answered, the next ones run in their own process too.
    }
  }

  private static String minutes(Duration d) {
    long m = d.toMinutes();
    return m >= 1 ? m + " min" : d.toSeconds() + " s";
  }

  /** Claims the start: false when another command is starting a server right now. */
  private static boolean claimStart(Path dataDir) throws IOException {
    Path mark = dataDir.resolve(STARTING);
    try {
      Files.createFile(mark);
      return true;
    } catch (java.nio.file.FileAlreadyExistsException e) {
      FileTime made = Files.getLastModifiedTime(mark);
      if (Duration.between(made.toInstant(), Instant.now()).compareTo(STALE_START) < 0) {
        return false;
      }
      Files.setLastModifiedTime(mark, FileTime.from(Instant.now()));
      return true;
    }
  }

  /** Whether a command is starting a background server on {@code dataDir} right now. */
  static boolean starting(Path dataDir) {
    try {
      FileTime made = Files.getLastModifiedTime(dataDir.resolve(STARTING));
      return Duration.between(made.toInstant(), Instant.now()).compareTo(STALE_START) < 0;
    } catch (IOException e) {
      return false;
    }
  }

  /** Drops the start mark once the server is up (or gave up). */
  static void startDone(Path dataDir) {
    try {
      Files.deleteIfExists(dataDir.resolve(STARTING));
    } catch (IOException e) {
      // a stale mark expires by itself
    }
  }

  private static Process spawn(String launcher, Path dataDir) throws IOException {
    List<String> command = new ArrayList<>();
    // A session of its own: the terminal's Ctrl-C and hangup are not the server's.
    if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
      command.add("/usr/bin/setsid");
    }
    command.addAll(
        List.of(
            launcher,
            "--data",
            dataDir.toString(),
            "serve",
            "--port",
            "0",
            "--exit-when-idle",
            "--background"));
    var builder = new ProcessBuilder(command);
    builder.environment().remove("BRAIN_STDERR_FD");
    var log = dataDir.resolve(LOG).toFile();
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log));
    builder.redirectErrorStream(true);
    return builder.start();
  }
}
