package dev.brain.server.cli;

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

  /**
   * The running server to ask, unless {@code --local} or the command already runs inside a server
   * (which never asks itself).
   */
  Optional<RunningServer> server(BrainCommand brain) {
    return local || brain.served != null ? Optional.empty() : RunningServer.find(brain.dataDir());
  }
}
