package dev.brain.models.chat;

/**
 * Server-sent events, one line at a time: {@code data:} lines are joined into an event's data, a
 * blank line ends the event, {@code :} comments (keep-alives) and {@code event:}/{@code id:}/{@code
 * retry:} fields are skipped. Any other line means the body is not an event stream.
 */
final class SseEvents {
  private final StringBuilder data = new StringBuilder();
  private final String source;
  private boolean hasData;

  /**
   * @param source who sends the stream, for the error message
   */
  SseEvents(String source) {
    this.source = source;
  }

  /** Consumes a line; returns the data of the event it completed, or null. */
  String onLine(String line) throws ChatException {
    if (line.isEmpty()) {
      return flush();
    }
    if (line.startsWith(":")) {
      return null;
    }
    int colon = line.indexOf(':');
    String field = colon < 0 ? line : line.substring(0, colon);
    String value = colon < 0 ? "" : line.substring(colon + 1);
    switch (field) {
      case "data" -> append(value.startsWith(" ") ? value.substring(1) : value);
      case "event", "id", "retry" -> {}
      default ->
          throw new ChatException(
              ChatException.Kind.PROTOCOL,
              source + " did not send server-sent events: '" + WireJson.excerpt(line) + "'");
    }
    return null;
  }

  /** The data of an event not yet ended by a blank line, or null; clears it. */
  String flush() {
    if (!hasData) {
      return null;
    }
    String event = data.toString();
    data.setLength(0);
    hasData = false;
    return event;
  }

  private void append(String value) {
    if (hasData) {
      data.append('\n');
    }
    data.append(value);
    hasData = true;
  }
}
