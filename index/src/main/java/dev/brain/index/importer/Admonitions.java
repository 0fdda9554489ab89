package dev.brain.index.importer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Admonitions and content tabs as MkDocs sites write them (Python-Markdown's {@code admonition},
 * PyMdown's {@code details} and {@code tabbed}): a line {@code !!! warning "Title"} ({@code ???
 * tip} and {@code ???+ tip} fold; {@code === "TOML"} is a tab) over the lines indented four spaces
 * under it, blank lines among them, turned into the Obsidian callouts the chunker reads ({@code >
 * [!warning] Title}, content quoted, a tab {@code > [!tab] TOML}). CommonMark has no such block: it
 * reads the marker line as a paragraph and the indented lines either as more lines of it or, after
 * a blank line, as a code block, so an answer would quote "!!! warning" run into the text, or the
 * text as code.
 *
 * <p>As Python-Markdown reads them: the content ends at the first line indented less (after a blank
 * line or not), may hold further admonitions, and a title {@code ""} means none. An admonition may
 * stand in a list item's text, indented with it; fenced code blocks are left alone, and so is a
 * marker indented four spaces or more outside a list item (code), and one with nothing indented
 * under it (a line of prose: "!!! Warning do not deploy on Fridays").
 */
final class Admonitions {

  /**
   * A marker line: {@code !!!}, {@code ???} or {@code ???+} with a type of words and an optional
   * quoted title (a fold, {@code ???}, may have the title alone); {@code ===} or {@code ===+} with
   * a quoted title. A title runs to the line's last quote, so it may quote code ({@code ??? info
   * "Key (`"key": string`)"}).
   */
  private static final Pattern OPEN =
      Pattern.compile(
          "([ \\t]*+)(?:(!!!|\\?\\?\\?\\+?)(?:[ \\t]*+([A-Za-z][\\w-]*+)(?:[ \\t]++[\\w-]++)*+)?"
              + "(?:[ \\t]++\"(.*)\")?|===\\+?[ \\t]++\"(.*)\")[ \\t]*+");

  /** Longest line read as a marker: markers are short, and a long line stays text. */
  private static final int MAX_MARKER = 400;

  /** How far an admonition's content is indented past its marker. */
  private static final int INDENT = 4;

  private Admonitions() {}

  /** The Markdown with its admonitions and tabs as callouts; the same text if it has none. */
  static String toCallouts(String markdown) {
    if (!markdown.contains("!!!") && !markdown.contains("???") && !markdown.contains("===")) {
      return markdown;
    }
    List<String> lines = List.of(markdown.split("\r?\n")); // trailing blank lines dropped
    int body = MarkdownLines.frontMatterEnd(lines);
    List<String> converted = convert(lines.subList(body, lines.size()), 0);
    if (converted == null) {
      return markdown; // a setext heading's === line, or prose: as it was, line ends and all
    }
    var out = new ArrayList<>(lines.subList(0, body));
    out.addAll(converted);
    return String.join("\n", out) + (markdown.endsWith("\n") ? "\n" : "");
  }

  /**
   * Deepest nesting of admonitions converted: deeper ones stay as written inside the last (real
   * docs nest two or three), so a hostile file cannot exhaust the stack.
   */
  static final int MAX_DEPTH = 16;

  /**
   * {@code lines} with every admonition at their top level (and inside those, down to {@link
   * #MAX_DEPTH}) as a callout; null when there is none.
   */
  private static List<String> convert(List<String> lines, int depth) {
    var out = new ArrayList<String>();
    int[] owner = owners(lines);
    boolean changed = false;
    int next = 0;
    while (next < lines.size()) {
      String line = lines.get(next++);
      String fence = MarkdownLines.fenceOpening(line);
      Matcher opening = OPEN.matcher(line.length() <= MAX_MARKER ? line : "");
      if (fence != null) {
        int end = MarkdownLines.fenceEnd(lines, next, fence);
        out.add(line);
        out.addAll(lines.subList(next, end));
        next = end;
      } else if (depth < MAX_DEPTH
          && opening.matches()
          && marker(opening)
          && (indentOf(line) < INDENT || inListItem(lines, owner[next - 1], line))) {
        int column = indentOf(line);
        String indent = " ".repeat(column);
        int after = next;
        var content = new ArrayList<String>();
        while (next < lines.size()) {
          String inner = lines.get(next);
          if (!inner.isBlank() && indentOf(inner) < column + INDENT) {
            break;
          }
          content.add(inner.isBlank() ? "" : dedent(inner, column + INDENT));
          next++;
        }
        int blanks = 0;
        while (!content.isEmpty() && content.getLast().isEmpty()) {
          content.removeLast();
          blanks++;
        }
        if (content.isEmpty()) {
          // Nothing indented under it: a line of prose ("!!! Warning do not deploy on Fridays").
          out.add(line);
          next = after;
          continue;
        }
        changed = true;
        gap(out);
        out.add(indent + "> " + head(opening));
        List<String> inside = convert(content, depth + 1);
        for (String inner : inside == null ? content : inside) {
          out.add((indent + "> " + inner).stripTrailing());
        }
        // So the text after it is no lazy continuation of its quote.
        out.add("");
        for (int i = 1; i < blanks; i++) {
          out.add("");
        }
      } else {
        out.add(line);
      }
    }
    return changed ? out : null;
  }

  /** A list item's first line: its marker and the spaces after it. */
  private static final Pattern LIST_ITEM =
      Pattern.compile("([ \\t]*+(?:[-*+]|\\d{1,9}[.)])[ \\t]++)\\S.*");

  /**
   * Whether {@code line}, indented four spaces or more, is in a list item's content: the line
   * {@code owner} of it (the first above it indented less, blank lines and the item's other lines
   * passed over) opens a list item whose text starts at most three columns to the left of it. Else
   * it is code (in the item or not), or a paragraph's line.
   */
  private static boolean inListItem(List<String> lines, int owner, String line) {
    if (owner < 0) {
      return false;
    }
    Matcher item = LIST_ITEM.matcher(lines.get(owner));
    if (!item.matches()) {
      return false;
    }
    // Indented up to three columns past where the item's text starts: more is code in the item.
    int text = columns(item.group(1));
    int indent = indentOf(line);
    return text <= indent && indent < text + INDENT;
  }

  /**
   * For each non-blank line, the nearest line above it indented less (-1 for none; blank lines -1):
   * one pass with a stack of lines by indent, so a long file of indented lines costs no more than a
   * short one per line.
   */
  private static int[] owners(List<String> lines) {
    int[] owner = new int[lines.size()];
    var open = new java.util.ArrayDeque<Integer>();
    for (int i = 0; i < lines.size(); i++) {
      owner[i] = -1;
      if (lines.get(i).isBlank()) {
        continue;
      }
      int indent = indentOf(lines.get(i));
      while (!open.isEmpty() && indentOf(lines.get(open.peek())) >= indent) {
        open.pop();
      }
      owner[i] = open.isEmpty() ? -1 : open.peek();
      open.push(i);
    }
    return owner;
  }

  /**
   * Whether a line matching {@link #OPEN} opens one: a tab, an admonition naming its type, or a
   * fold naming its type or title ({@code !!! "Title"} names no type, so Python-Markdown leaves
   * it).
   */
  private static boolean marker(Matcher opening) {
    return opening.group(2) == null
        || opening.group(3) != null
        || opening.group(2).startsWith("?") && opening.group(4) != null;
  }

  /**
   * The callout's first line: {@code [!type] Title}; {@code [!details] Title} for a fold without a
   * type; {@code [!tab] Label} for a tab.
   */
  private static String head(Matcher opening) {
    if (opening.group(2) == null) {
      return ("[!tab] " + opening.group(5).strip()).strip();
    }
    String type = opening.group(3) == null ? "details" : opening.group(3).toLowerCase(Locale.ROOT);
    String title = opening.group(4) == null ? "" : opening.group(4).strip();
    return title.isEmpty() ? "[!" + type + "]" : "[!" + type + "] " + title;
  }

  /** A blank line before a callout, unless the line before is blank already. */
  private static void gap(List<String> out) {
    if (!out.isEmpty() && !out.getLast().isBlank()) {
      out.add("");
    }
  }

  /** Columns {@code s} spans, a tab reaching the next multiple of four. */
  private static int columns(String s) {
    int column = 0;
    for (int i = 0; i < s.length(); i++) {
      column = after(column, s.charAt(i));
    }
    return column;
  }

  /** Columns of leading white space. */
  private static int indentOf(String line) {
    int column = 0;
    for (int i = 0; i < line.length() && isBlank(line.charAt(i)); i++) {
      column = after(column, line.charAt(i));
    }
    return column;
  }

  /** {@code line} without its first {@code columns} columns of white space. */
  private static String dedent(String line, int columns) {
    int column = 0;
    int i = 0;
    for (; i < line.length() && column < columns && isBlank(line.charAt(i)); i++) {
      column = after(column, line.charAt(i));
    }
    // A tab reaching past the cut leaves its remaining columns as spaces.
    return " ".repeat(Math.max(0, column - columns)) + line.substring(i);
  }

  /** The column after {@code c} written at {@code column}: a tab reaches the next multiple of 4. */
  private static int after(int column, char c) {
    return c == '\t' ? column + INDENT - column % INDENT : column + 1;
  }

  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t';
  }
}
