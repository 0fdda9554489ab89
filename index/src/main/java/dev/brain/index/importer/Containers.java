package dev.brain.index.importer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Container directives ({@code :::tip}, {@code ::: tip NOTE}, {@code :::tip[Title]}, {@code
 * :::warning{title="x"}} … {@code :::}), as Docusaurus, VitePress, Starlight and other docs sites
 * write admonitions, turned into the Obsidian callouts the chunker reads ({@code > [!tip] Title},
 * content quoted). A container that is no admonition ({@code ::: code-group}) loses its marker
 * lines and keeps its content as it is.
 *
 * <p>Like markdown-it-container and remark-directive: a closing line needs at least as many colons
 * as the opening one (nested containers give the outer one more), fenced code blocks are left
 * alone, and a container never closed runs to the end of the file, so no text is lost.
 */
final class Containers {

  /**
   * Container names shown as a callout box: Docusaurus, VitePress and Starlight admonitions, the
   * Obsidian callout types, and VitePress's {@code details}, whose title a reader sees.
   */
  static final Set<String> ADMONITIONS =
      Set.of(
          "note",
          "tip",
          "info",
          "warning",
          "caution",
          "danger",
          "important",
          "success",
          "secondary",
          "details",
          "hint",
          "attention",
          "error",
          "example",
          "question",
          "abstract",
          "summary",
          "todo",
          "bug",
          "quote",
          "failure");

  private static final Pattern OPEN =
      Pattern.compile("^([ \\t]*)(:{3,})[ \\t]*([A-Za-z][\\w-]*)(.*)$");
  private static final Pattern CLOSE = Pattern.compile("^[ \\t]*(:{3,})[ \\t]*$");
  private static final Pattern BRACKET_TITLE = Pattern.compile("^\\[([^\\]]*)\\]");
  private static final Pattern ATTRIBUTE_TITLE =
      Pattern.compile("\\btitle=(?:\"([^\"]*)\"|'([^']*)')");

  /** An open container: its colon count, indent, and whether it is a callout. */
  private record Open(int colons, String indent, boolean callout) {}

  private final List<String> lines;
  private final List<String> out = new ArrayList<>();
  private final List<Open> open = new ArrayList<>();

  private Containers(String source) {
    this.lines = List.of(source.split("\r?\n")); // trailing blank lines dropped
  }

  /** The Markdown with its container directives as callouts; the same text if it has none. */
  static String toCallouts(String markdown) {
    if (!markdown.contains(":::")) {
      return markdown;
    }
    var pass = new Containers(markdown);
    pass.run();
    return String.join("\n", pass.out) + (markdown.endsWith("\n") ? "\n" : "");
  }

  private void run() {
    int next = MarkdownLines.frontMatterEnd(lines);
    out.addAll(lines.subList(0, next));
    while (next < lines.size()) {
      String line = lines.get(next++);
      String fence = MarkdownLines.fenceOpening(line);
      Matcher opening = OPEN.matcher(line);
      Matcher closing = CLOSE.matcher(line);
      if (fence != null) {
        emit(line);
        next = fencedBlock(next, fence);
      } else if (opening.matches()) {
        opening(opening);
      } else if (closing.matches()
          && !open.isEmpty()
          && closing.group(1).length() >= open.getLast().colons()) {
        open.removeLast();
        gap(); // so the text after a callout is no lazy continuation of its quote
      } else {
        emit(line);
      }
    }
  }

  /** Copies a fenced code block's lines after its opening one; returns the index after it. */
  private int fencedBlock(int from, String marker) {
    int end = MarkdownLines.fenceEnd(lines, from, marker);
    lines.subList(from, end).forEach(this::emit);
    return end;
  }

  /** An opening line: a callout head, or for other containers a paragraph break. */
  private void opening(Matcher opening) {
    String indent = opening.group(1);
    String name = opening.group(3).toLowerCase(Locale.ROOT);
    boolean callout = ADMONITIONS.contains(name);
    gap();
    if (callout) {
      String title = title(opening.group(4).strip());
      out.add(quoted(indent + "[!" + name + "]" + (title.isEmpty() ? "" : " " + title), indent));
    }
    open.add(new Open(opening.group(2).length(), indent, callout));
  }

  /** The title after the name: {@code [Title]}, {@code {title="Title"}} or the rest of the line. */
  static String title(String rest) {
    Matcher bracket = BRACKET_TITLE.matcher(rest);
    if (bracket.find()) {
      return bracket.group(1).strip();
    }
    if (rest.startsWith("{")) {
      Matcher attribute = ATTRIBUTE_TITLE.matcher(rest);
      return attribute.find()
          ? (attribute.group(1) != null ? attribute.group(1) : attribute.group(2)).strip()
          : "";
    }
    return rest;
  }

  private void emit(String line) {
    out.add(quoted(line, null));
  }

  /** A paragraph break the pass makes: a blank line, unless the last line is one already. */
  private void gap() {
    String blank = quoted("", null);
    if (!out.isEmpty() && !out.getLast().equals(blank)) {
      out.add(blank);
    }
  }

  /**
   * A line quoted once for each callout it is in; {@code head} is the indent of the callout whose
   * head line this is. The indent up to the innermost callout's is replaced by the quote.
   */
  private String quoted(String line, String head) {
    List<Open> callouts = open.stream().filter(Open::callout).toList();
    if (callouts.isEmpty() && head == null) {
      return line;
    }
    String indent = callouts.isEmpty() ? head : callouts.getFirst().indent();
    int depth = callouts.size() + (head != null ? 1 : 0);
    String innermost = head != null ? head : callouts.getLast().indent();
    int strip = 0;
    while (strip < innermost.length()
        && strip < line.length()
        && (line.charAt(strip) == ' ' || line.charAt(strip) == '\t')) {
      strip++;
    }
    return (indent + "> ".repeat(depth) + line.substring(strip)).stripTrailing();
  }
}
