package dev.brain.server;

import dev.brain.server.cli.BrainCommand;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Entry point of the {@code brain} command line: {@code bin/brain} runs this class. */
public final class Main {
  // Held strongly: java.util.logging keeps only weak references to configured loggers.
  private static final Logger LUCENE_LOG = Logger.getLogger("org.apache.lucene");

  private Main() {}

  /** Runs the CLI and exits with its code: 0 ok, 1 error, 2 usage. */
  public static void main(String[] args) {
    quietLibraries();
    System.exit(BrainCommand.run(args));
  }

  /**
   * Library chatter (Lucene's vector-API notice, DJL's GPU probe, PDFBox font fallbacks) is not for
   * the user; real problems surface as brain's own errors. {@code --debug} does not change this;
   * set {@code -Dorg.slf4j.simpleLogger.defaultLogLevel=info} in BRAIN_JAVA_OPTS to see it.
   */
  private static void quietLibraries() {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
    }
    LUCENE_LOG.setLevel(Level.WARNING);
  }
}
