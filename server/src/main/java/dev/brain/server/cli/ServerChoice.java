package dev.brain.server.cli;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --local}, mixed into the commands that a running {@code brain serve} can answer: without
 * it they use the server advertised in the data directory when there is a live one.
 */
final class ServerChoice {
  @Option(
      names = "--local",
      description =
          "Run in this process even when 'brain serve' runs on the data directory (by default"
              + " the running server answers, which is faster).")
  boolean local;

  /** The running server to ask, unless {@code --local}. */
  Optional<RunningServer> server(Path dataDir) {
    return local ? Optional.empty() : RunningServer.find(dataDir);
  }
}
