package dev.brain.server.http;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What Helidon logs that brain says better itself. A client that leaves before its response is
 * complete is no server fault, but Helidon logs each such case as a warning with a stack trace (a
 * closed tab, a cancelled stream, a reset mid-download): one INFO line each instead. A listener
 * that cannot bind (a taken port) is logged by Helidon as two SEVERE records with a stack trace,
 * and {@link BrainServer#start} then reports it as one sentence naming the port: those records go.
 * Every other record passes.
 */
final class HelidonLogs implements Filter {
  private static final System.Logger LOG = System.getLogger(HelidonLogs.class.getName());

  /**
   * The Helidon loggers that report a failed write: the error handlers (a response already started)
   * and the connection handler. Held strongly: java.util.logging keeps only weak references to
   * configured loggers.
   */
  private static final List<Logger> HELIDON =
      List.of(
          Logger.getLogger("io.helidon.webserver.http.ErrorHandlers"),
          Logger.getLogger("io.helidon.webserver.ConnectionHandler"),
          Logger.getLogger("io.helidon.webserver.LoomServer"));

  private static final HelidonLogs INSTANCE = new HelidonLogs();

  private HelidonLogs() {}

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
    if (record.getLoggerName().endsWith("LoomServer") && startFailure(record)) {
      return false;
    }
    Throwable thrown = record.getThrown();
    if (thrown == null) {
      return true;
    }
    if (ErrorMapping.clientWentAway(thrown)) {
      LOG.log(Level.INFO, "a client went away before its response was complete");
      return false;
    }
    if (afterResponseStarted(record)) {
      // The answer was already on its way (a stream, a body half written): nothing to tell the
      // client any more, and the failure is the message, not the stack.
      LOG.log(
          Level.WARNING, "a request failed after its response had started: " + thrown.getMessage());
      return false;
    }
    return true;
  }

  /** Helidon's records of an error it could not answer because the response had started. */
  private static boolean afterResponseStarted(LogRecord record) {
    String message = record.getMessage() == null ? "" : record.getMessage();
    return record.getLoggerName().endsWith("ErrorHandlers")
        && (message.contains("cannot send error response")
            || message.contains("Unable to reset response"));
  }

  /** Helidon's records of a listener that did not start (BrainServer.start reports it). */
  private static boolean startFailure(LogRecord record) {
    String message = record.getMessage() == null ? "" : record.getMessage();
    return message.startsWith("Failed to start listener")
        || message.startsWith("Helidon WebServer failed to start");
  }
}
