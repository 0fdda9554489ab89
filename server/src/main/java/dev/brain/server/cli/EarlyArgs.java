package dev.brain.server.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What brain's arguments say before picocli parses them: the subcommand invoked, whether only the
 * version is asked for, the data directory a search or get will read here and whether the search
 * will embed its query. Building the picocli model is the slow part of a short command, so these
 * decide how much of it to build and what can start loading meanwhile.
 */
final class EarlyArgs {

  private EarlyArgs() {}

  /**
   * Whether {@code args} are a {@code brain search} that embeds its query wherever it runs: no
   * {@code --lanes}, no {@code --no-semantic} (where it runs is {@link #readDataDir}'s to say).
   */
  static boolean embeds(String... args) {
    if (!"search".equals(invoked(args))) {
      return false;
    }
    for (String a : args) {
      if (a.equals("--")) {
        break;
      } else if (a.equals("--no-semantic") || a.startsWith("--lanes")) {
        return false;
      }
    }
    return true;
  }

  /** The commands whose run in a process of their own opens the index read-only, as is. */
  private static final java.util.Set<String> READING = java.util.Set.of("search", "get");

  /**
   * The data directory whose configuration and index a {@code brain search} or {@code brain get} in
   * {@code args} will read in this process, with no flag changing the configuration; empty when in
   * doubt (another command, help, a server advertised without {@code --local}, an argument that is
   * not a path), which leaves the decision to the command once parsed.
   */
  static Optional<Path> readDataDir(String... args) {
    String invoked = invoked(args);
    if (invoked == null || !READING.contains(invoked)) {
      return Optional.empty();
    }
    var root = new BrainCommand();
    boolean local = false;
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.equals("--")) {
          break;
        } else if (a.equals("--data") && i + 1 < args.length) {
          root.data = Path.of(args[++i]);
        } else if (a.startsWith("--data=")) {
          root.data = Path.of(a.substring("--data=".length()));
        } else if (a.equals("--local")) {
          local = true;
        } else if (a.equals("-h")
            || a.equals("--help")
            || a.equals("-V")
            || a.equals("--version")) {
          return Optional.empty();
        }
      }
      Path dir = root.dataDir();
      if (!local && Files.exists(dir.resolve(ServerAdvertisement.FILE))) {
        return Optional.empty();
      }
      return Optional.of(dir);
    } catch (RuntimeException e) {
      return Optional.empty(); // picocli will say what is wrong with the arguments
    }
  }

  /**
   * The subcommand {@code args} invoke: the first argument past the global options; null when it is
   * not one of brain's commands other than {@code help} (help, a typo, an option), which needs them
   * all.
   */
  static String invoked(String... args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--data")) {
        i++;
      } else if (!a.startsWith("--data=") && !a.equals("--debug")) {
        return !a.equals("help") && BrainCommand.SUBCOMMANDS.contains(a) ? a : null;
      }
    }
    return null;
  }

  /**
   * Whether {@code args} ask brain itself for its version ({@code --version} or {@code -V} before
   * any command): that needs no subcommand, and building all twenty took most of the half second
   * {@code brain --version} used to take.
   */
  static boolean asksVersion(String... args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--version") || a.equals("-V")) {
        return true;
      }
      if (a.equals("--data")) {
        i++;
      } else if (!a.startsWith("--data=") && !a.equals("--debug")) {
        return false;
      }
    }
    return false;
  }
}
