package dev.brain.server.http;

import dev.brain.Brain;
import java.util.List;

/**
 * Runs a {@code brain} command inside the server, against the server's own open {@link Brain}, for
 * {@code POST /api/cli}: {@code bin/brain} sends the read-only commands there (with {@code curl},
 * no JVM of its own) and prints the bytes the command printed, so a search through a running server
 * costs a round trip instead of a JVM start. The CLI provides the implementation; this package only
 * serves it.
 */
public interface CliRunner {

  /** The answer's header with the command's exit code. */
  String EXIT_CODE = "Brain-Exit-Code";

  /** The answer's header with the byte length of standard output at the start of the body. */
  String STDOUT_LENGTH = "Brain-Stdout-Length";

  /**
   * Runs {@code args} (as typed after {@code brain}) with {@code brain} and captures what it
   * prints.
   *
   * @return the command's exit code, standard output and standard error
   * @throws IllegalArgumentException if the command is not one the server runs (not read-only, a
   *     usage error, help, or one that needs a chat model); the message says which, and the client
   *     runs it in its own process instead
   */
  Output run(Brain brain, List<String> args);

  /**
   * What a command printed.
   *
   * @param exitCode the command's exit code (0 ok, 1 error, 2 usage)
   * @param stdout standard output, UTF-8
   * @param stderr standard error, UTF-8
   */
  record Output(int exitCode, String stdout, String stderr) {}
}
