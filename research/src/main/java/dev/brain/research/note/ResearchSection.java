package dev.brain.research.note;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code ## Research} section of a note: where it is, and the note with it replaced (or
 * appended). Headings are ATX headings outside fenced code and outside the front matter; the
 * section runs from its heading to the next heading of level 1 or 2, or the end of the note.
 * Everything outside the section keeps its exact characters.
 */
final class ResearchSection {
  private ResearchSection() {}

  static final String HEADING = "## Research";

  private static final Pattern ATX = Pattern.compile("^ {0,3}(#{1,6})(?:[ \\t]+(.*?))?[ \\t]*$");
  private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");
  private static final Pattern CLOSING_HASHES = Pattern.compile("[ \\t]+#+$");

  /** Start and end (exclusive) character offsets of the section, heading included. */
  record Span(int start, int end) {}

  /** The span of the first {@code ## Research} section, or {@code null} when there is none. */
  static Span find(String text) {
    int start = -1;
    for (Line line : lines(text)) {
      if (line.headingLevel == 0) {
        continue;
      }
      if (start < 0) {
        if (line.headingLevel == 2 && line.headingText.equalsIgnoreCase("research")) {
          start = line.start;
        }
      } else if (line.headingLevel <= 2) {
        return new Span(start, line.start);
      }
    }
    return start < 0 ? null : new Span(start, text.length());
  }

  /** The note without its research section (for topic extraction: not the tool's own output). */
  static String without(String text) {
    Span span = find(text);
    return span == null ? text : text.substring(0, span.start) + text.substring(span.end);
  }

  /**
   * The note with {@code section} (heading included, ending with a line break) in place of the old
   * research section, or appended after a blank line when there is none.
   */
  static String replace(String text, String section) {
    String eol = text.contains("\r\n") ? "\r\n" : "\n";
    String block = section.replace("\r\n", "\n").replace("\n", eol);
    Span span = find(text);
    if (span != null) {
      boolean more = span.end < text.length();
      return text.substring(0, span.start) + block + (more ? eol : "") + text.substring(span.end);
    }
    if (text.isEmpty()) {
      return block;
    }
    String before = text.endsWith("\n") ? text : text + eol;
    return before + eol + block;
  }

  /**
   * {@code body} with every heading of level 1 or 2 made level 3, so that nothing inside the
   * section can end it.
   */
  static String demoteHeadings(String body) {
    var out = new StringBuilder();
    for (Line line : lines(body)) {
      String raw = body.substring(line.start, line.end);
      if (line.headingLevel == 1 || line.headingLevel == 2) {
        raw = raw.replaceFirst("#{1,2}", "###");
      }
      out.append(raw);
    }
    return out.toString();
  }

  private record Line(int start, int end, int headingLevel, String headingText) {}

  private static java.util.List<Line> lines(String text) {
    var out = new java.util.ArrayList<Line>();
    String fence = null;
    boolean frontMatter = text.startsWith("---\n") || text.startsWith("---\r\n");
    int pos = 0;
    int index = 0;
    while (pos < text.length()) {
      int nl = text.indexOf('\n', pos);
      int end = nl < 0 ? text.length() : nl + 1;
      String line = text.substring(pos, end).replaceAll("\r?\n$", "");
      int level = 0;
      String heading = null;
      if (frontMatter) {
        if (index > 0 && (line.equals("---") || line.equals("..."))) {
          frontMatter = false;
        }
      } else if (fence != null) {
        if (line.strip().startsWith(fence)
            && line.strip().replace(fence.substring(0, 1), "").isEmpty()) {
          fence = null;
        }
      } else {
        Matcher f = FENCE.matcher(line);
        Matcher h = ATX.matcher(line);
        if (f.find()) {
          fence = f.group(1);
        } else if (h.matches()) {
          level = h.group(1).length();
          heading =
              h.group(2) == null ? "" : CLOSING_HASHES.matcher(h.group(2)).replaceAll("").strip();
        }
      }
      out.add(new Line(pos, end, level, heading));
      pos = end;
      index++;
    }
    return out;
  }
}
