package dev.brain.server.http;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * A client that leaves before its response is complete is no server fault: Helidon logs each such
 * case as a warning with a stack trace (a closed tab, a cancelled stream, a reset mid-download).
 * This filter replaces those records with one INFO line each and lets every other record through.
 */
final class QuietDisconnects implements Filter {
  private static final System.Logger LOG = System.getLogger(QuietDisconnects.class.getName());

  /**
   * The Helidon loggers that report a failed write: the error handlers (a response already started)
   * and the connection handler. Held strongly: java.util.logging keeps only weak references to
   * configured loggers.
   */
  private static final List<Logger> HELIDON =
      List.of(
          Logger.getLogger("io.helidon.webserver.http.ErrorHandlers"),
          Logger.getLogger("io.helidon.webserver.ConnectionHandler"));

  private static final QuietDisconnects INSTANCE = new QuietDisconnects();

  private QuietDisconnects() {}

  /** Installs the filter on Helidon's loggers (once per JVM). */
  static void install() {
    for (Logger logger : HELIDON) {
      if (logger.getFilter() != INSTANCE) {
        logger.setFilter(INSTANCE);
      }
    }
  }

  @Override
  public boolean isLoggable(LogRecord record) {
    Throwable thrown = record.getThrown();
    if (thrown == null || !ErrorMapping.clientWentAway(thrown)) {
      return true;
    }
    LOG.log(Level.INFO, "a client went away before its response was complete");
    return false;
  }
}
