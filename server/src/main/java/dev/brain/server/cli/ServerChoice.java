package dev.brain.server.cli;

import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
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
   * Runs this command in the running server and prints what it printed there; the exit code, or
   * empty when it runs in this process: {@code --local}, no live server (or none that proves it
   * serves this data directory), inside a server already (which never asks itself), a command the
   * server does not run (a chat model takes part), or a server that failed to answer.
   */
  Optional<Integer> answer(BrainCommand brain, CommandSpec spec) {
    if (local || brain.served != null) {
      return Optional.empty();
    }
    var server = RunningServer.find(brain.dataDir());
    if (server.isEmpty()) {
      // This one answers here; the next ones through a server started now.
      BackgroundServer.startIfWanted(brain, spec.commandLine().getErr());
      return Optional.empty();
    }
    return server.get().run(brain.args, spec.commandLine().getOut(), spec.commandLine().getErr());
  }
}
