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
}
