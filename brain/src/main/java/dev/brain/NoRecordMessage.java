package dev.brain;

import java.util.List;

/** What every surface says when a key names no record: {@link Brain#noRecordMessage}. */
final class NoRecordMessage {
  private NoRecordMessage() {}

  /**
   * "no record with key 'K'" with the keys a path, title or URL may mean ({@code suggested}, best
   * first; five shown), or how to find a key when none matches.
   */
  static String of(String key, List<String> suggested) {
    String message = "no record with key '" + key.strip() + "'";
    if (suggested.isEmpty()) {
      return message + "; keys look like note:<collection>/<path>, and a search finds one";
    }
    int shown = Math.min(suggested.size(), 5);
    String more = suggested.size() > shown ? " (and " + (suggested.size() - shown) + " more)" : "";
    return message
        + "; did you mean "
        + String.join(" or ", suggested.subList(0, shown))
        + more
        + "?";
  }
}
