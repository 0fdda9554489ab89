package dev.brain.index.importer;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the line-based passes over Markdown ({@link Mdx}, {@link Containers}, {@link Admonitions})
 * leave untouched: front matter and fenced code blocks, recognised the same way by all three.
 */
final class MarkdownLines {
  private MarkdownLines() {}

  private static final Pattern FENCE = Pattern.compile("^[ \\t]*(`{3,}|~{3,})(.*)$");

  /**
   * The index after the front matter ({@code ---} YAML or {@code +++} TOML) that opens {@code
   * lines}; 0 when there is none.
   */
  static int frontMatterEnd(List<String> lines) {
    if (lines.isEmpty()) {
      return 0;
    }
    String first = lines.get(0).strip();
    if (!first.equals("---") && !first.equals("+++")) {
      return 0;
    }
    for (int i = 1; i < lines.size(); i++) {
      if (lines.get(i).strip().equals(first)) {
        return i + 1;
      }
    }
    return 0;
  }

  /**
   * The marker ({@code ```}, {@code ~~~~}) of the fenced code block {@code line} opens, or null.
   */
  static String fenceOpening(String line) {
    Matcher fence = FENCE.matcher(line);
    // A backtick fence's info string holds no backtick (else the line is inline code).
    return fence.matches() && !(fence.group(1).startsWith("`") && fence.group(2).contains("`"))
        ? fence.group(1)
        : null;
  }

  /**
   * The index after the fenced code block opened with {@code marker} whose lines start at {@code
   * from} (the line after its opening one): after its closing line, or the end of {@code lines}
   * when it is never closed.
   */
  static int fenceEnd(List<String> lines, int from, String marker) {
    for (int i = from; i < lines.size(); i++) {
      if (closesFence(lines.get(i), marker)) {
        return i + 1;
      }
    }
    return lines.size();
  }

  /** Whether {@code line} closes a fenced code block opened with {@code marker}. */
  static boolean closesFence(String line, String marker) {
    char c = marker.charAt(0);
    int from = 0;
    int to = line.length();
    while (from < to && (line.charAt(from) == ' ' || line.charAt(from) == '\t')) {
      from++;
    }
    while (to > from && (line.charAt(to - 1) == ' ' || line.charAt(to - 1) == '\t')) {
      to--;
    }
    return to - from >= marker.length() && line.substring(from, to).chars().allMatch(ch -> ch == c);
  }
}
