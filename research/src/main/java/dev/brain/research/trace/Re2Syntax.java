package dev.brain.research.trace;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go's (RE2) regex syntax, as gitleaks' rules are written, translated to Java's. */
final class Re2Syntax {

  private static final Pattern POSIX_CLASS = Pattern.compile("\\[:(\\^?)([a-z]+):\\]");
  private static final Pattern REPETITION = Pattern.compile("\\{\\d+(?:,\\d*)?\\}");

  /** RE2's ASCII classes by name, as Java names them in {@code \p{...}}. */
  private static final Map<String, String> POSIX_NAMES =
      Map.ofEntries(
          Map.entry("alnum", "Alnum"),
          Map.entry("alpha", "Alpha"),
          Map.entry("ascii", "ASCII"),
          Map.entry("blank", "Blank"),
          Map.entry("cntrl", "Cntrl"),
          Map.entry("digit", "Digit"),
          Map.entry("graph", "Graph"),
          Map.entry("lower", "Lower"),
          Map.entry("print", "Print"),
          Map.entry("punct", "Punct"),
          Map.entry("space", "Space"),
          Map.entry("upper", "Upper"),
          Map.entry("xdigit", "XDigit"));

  private Re2Syntax() {}

  /**
   * A Go (RE2) regex in Java's syntax: {@code (?P<name>} becomes {@code (?<name>} (Java's names
   * have no underscores); inside a character class, {@code [:alnum:]} becomes {@code \p{Alnum}},
   * and a {@code [} or {@code &} is escaped (Java reads them as a nested class or an
   * intersection); a {@code {} that starts no repetition is escaped (Go takes it literally).
   */
  static String toJava(String re) {
    var out = new StringBuilder(re.length() + 16);
    boolean inClass = false;
    int i = 0;
    while (i < re.length()) {
      char c = re.charAt(i);
      if (c == '\\' && i + 1 < re.length()) {
        out.append(c).append(re.charAt(i + 1));
        i += 2;
        continue;
      }
      if (inClass) {
        Matcher posix = POSIX_CLASS.matcher(re).region(i, re.length());
        if (posix.lookingAt()) {
          // An unknown name stays unknown to Java too: the rule is then skipped, not misread.
          String cls = POSIX_NAMES.getOrDefault(posix.group(2), posix.group(2));
          out.append(posix.group(1).isEmpty() ? "\\p{" : "\\P{").append(cls).append('}');
          i = posix.end();
          continue;
        }
        if (c == ']') {
          inClass = false;
          out.append(c);
        } else if (c == '[' || c == '&') {
          out.append('\\').append(c);
        } else {
          out.append(c);
        }
        i++;
        continue;
      }
      if (re.startsWith("(?P<", i)) {
        int close = re.indexOf('>', i);
        out.append("(?<").append(re.substring(i + 4, close).replace("_", "")).append('>');
        i = close + 1;
      } else if (c == '[') {
        inClass = true;
        out.append(c);
        i++;
        if (i < re.length() && re.charAt(i) == '^') {
          out.append('^');
          i++;
        }
        if (i < re.length() && re.charAt(i) == ']') {
          out.append("\\]");
          i++;
        }
      } else if (c == '{' && !REPETITION.matcher(re).region(i, re.length()).lookingAt()) {
        out.append("\\{");
        i++;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }
}
