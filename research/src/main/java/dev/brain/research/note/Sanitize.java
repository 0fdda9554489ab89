package dev.brain.research.note;

/** Text from a note or a model made safe to use as a one-line label. */
final class Sanitize {
  private Sanitize() {}

  static final int MAX_TOPIC_CHARS = 120;
  static final int MAX_CONTEXT_CHARS = 300;

  /** One line: control characters and runs of white space become one space; cut at {@code max}. */
  static String line(String s, int max) {
    if (s == null) {
      return "";
    }
    String one = s.replaceAll("[\\p{Cntrl}\\s]+", " ").strip();
    return one.length() <= max ? one : one.substring(0, max - 1).strip() + "…";
  }

  /**
   * Text with its links made plain (wikilinks to their label, Markdown links to their text, URLs to
   * their host, stray brackets of a cut link removed), so that a quoted passage adds no link of its
   * own.
   */
  static String unlink(String s) {
    if (s == null) {
      return "";
    }
    return s.replaceAll("\\[\\[([^\\]|]+)\\|([^\\]]+)]]", "$2")
        .replaceAll("\\[\\[([^\\]]+)]]", "$1")
        .replaceAll("!?\\[([^\\]]*)]\\([^)]*\\)", "$1")
        .replaceAll("https?://([^/\\s)]+)[^\\s)]*", "$1")
        .replace("[[", "")
        .replace("]]", "");
  }
}
