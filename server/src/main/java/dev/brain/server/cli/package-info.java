/**
 * The {@code brain} command line on picocli: one class per subcommand, the output formats, and the
 * client of a running {@code brain serve} (found through its advertisement in the data directory,
 * or started in the background) that answers read-only commands without a JVM start.
 *
 * <p>{@link dev.brain.server.cli.BrainCommand} is the only public type, run by {@code Main}; the
 * commands and the server client are package-private.
 */
package dev.brain.server.cli;
