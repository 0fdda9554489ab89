package dev.brain.index.importer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * MDX (Markdown with ESM {@code import}/{@code export} lines and JSX components, as Astro
 * Starlight, Docusaurus and Nextra sites write it) as the plain Markdown a reader of the rendered
 * page sees, for the Markdown importer to read.
 *
 * <p>No maintained MDX parser runs on the JVM (MDX's own is micromark in JavaScript, and
 * markdown-rs in Rust), so this is a line-based pass, outside fenced code blocks only:
 *
 * <ul>
 *   <li>top-level {@code import}/{@code export} statements are dropped, through the blank line that
 *       ends them (past it while brackets are open);
 *   <li>JSX comments {@code {/* ... *&#47;}} are dropped;
 *   <li>component tags (a capitalised name, or a fragment {@code <>}; attributes may span lines)
 *       are dropped, the Markdown between an opening and a closing tag kept as ordinary Markdown; a
 *       line that held only tags becomes a paragraph break;
 *   <li>a callout component ({@link #CALLOUTS}: {@code <Aside type="tip" title="...">}, {@code
 *       <Admonition>}, {@code <Callout>}, {@code <Note>}, ...) becomes an Obsidian callout {@code >
 *       [!tip] Title}, its content quoted;
 *   <li>the quoted values of the attributes in {@link #VISIBLE} ({@code title}, {@code label},
 *       {@code description}, {@code caption}, {@code alt}), which a reader sees on the page, are
 *       kept as text in the tag's place (a paragraph of their own when the tag had its own line);
 *       every other attribute, and any value in braces, is dropped;
 *   <li>as MDX has no indented code blocks, lines Markdown would read as one lose that indent.
 * </ul>
 *
 * Lower-case tags are HTML and stay for the Markdown parser. Input the pass cannot follow (a tag,
 * comment or statement that never closes) raises {@link Unreadable}: the caller reads the file as
 * plain Markdown instead.
 */
final class Mdx {

  /** Components shown as a callout box, by name; their {@code type} names the callout. */
  static final Set<String> CALLOUTS =
      Set.of(
          "Aside",
          "Admonition",
          "Callout",
          "Note",
          "Tip",
          "Info",
          "Warning",
          "Caution",
          "Danger",
          "Important");

  /** Attributes whose quoted value is text a reader of the page sees. */
  static final List<String> VISIBLE = List.of("title", "label", "description", "caption", "alt");

  /** How many lines one tag, comment or statement may span before the pass gives up. */
  private static final int MAX_SPAN_LINES = 400;

  private static final Pattern ESM = Pattern.compile("^(?:import|export)(?:[\\s{*]|$)");
  private static final Pattern CALLOUT_TYPE = Pattern.compile("[A-Za-z][A-Za-z-]*");

  /** Why an MDX file could not be read as MDX. */
  static final class Unreadable extends Exception {
    private static final long serialVersionUID = 1L;

    Unreadable(String reason) {
      super(reason, null, false, false);
    }
  }

  private final List<String> lines;
  private final List<String> out = new ArrayList<>();
  private final List<Open> open = new ArrayList<>();
  private int next;
  private int bodyStart;

  private Mdx(String source) {
    this.lines = List.of(source.split("\r?\n", -1));
  }

  /** The Markdown of an MDX source; front matter is kept as it is. */
  static String toMarkdown(String source) throws Unreadable {
    var pass = new Mdx(source);
    pass.run();
    return MdxIndent.withoutIndentedCode(String.join("\n", pass.out));
  }

  /** A component whose closing tag has not come yet. */
  private record Open(String name, String indent, boolean callout) {}

  private void run() throws Unreadable {
    frontMatter();
    while (next < lines.size()) {
      String line = lines.get(next);
      String fence = MarkdownLines.fenceOpening(line);
      if (fence != null) {
        fencedBlock(fence);
      } else if (open.isEmpty() && ESM.matcher(line).find() && statementStart()) {
        skipStatement();
      } else {
        logicalLine();
      }
    }
  }

  /** Front matter ({@code ---} YAML or {@code +++} TOML) is copied untouched. */
  private void frontMatter() {
    int end = MarkdownLines.frontMatterEnd(lines);
    if (end > 0) {
      out.addAll(lines.subList(0, end));
      next = end;
      bodyStart = next;
    }
  }

  /** An ESM statement starts a paragraph: at the top, after front matter or after a blank line. */
  private boolean statementStart() {
    return next == bodyStart || lines.get(next - 1).isBlank();
  }

  private boolean afterBlank() {
    return out.isEmpty() || out.get(out.size() - 1).isBlank();
  }

  /** A fenced code block, copied as it is (an {@code import} in it is code, not ESM). */
  private void fencedBlock(String marker) {
    int end = MarkdownLines.fenceEnd(lines, next + 1, marker);
    while (next < end) {
      emit(lines.get(next++));
    }
  }

  /**
   * An ESM statement: it runs to the next blank line, and on past blank lines while a bracket it
   * opened is still open (an import list spread over paragraphs).
   */
  private void skipStatement() throws Unreadable {
    int start = next;
    int depth = 0;
    while (next < lines.size()) {
      String line = lines.get(next);
      if (line.isBlank() && depth <= 0) {
        return;
      }
      depth += bracketDepth(line);
      next++;
    }
    if (depth > 0) {
      throw new Unreadable("the statement on line " + (start + 1) + " never closes its brackets");
    }
  }

  /** The brackets a line of JavaScript opens minus those it closes, outside strings. */
  private static int bracketDepth(String line) {
    int depth = 0;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '"' || c == '\'' || c == '`') {
        quote = c;
      } else if (c == '/' && i + 1 < line.length() && line.charAt(i + 1) == '/') {
        break;
      } else if (c == '{' || c == '(' || c == '[') {
        depth++;
      } else if (c == '}' || c == ')' || c == ']') {
        depth--;
      }
    }
    return depth;
  }

  /** One line of Markdown, joined with the lines after it while a tag or comment is open. */
  private void logicalLine() throws Unreadable {
    int start = next;
    String text = lines.get(next++);
    List<Object> tokens;
    boolean tagsMayContinue = true;
    while ((tokens = MdxScanner.scan(text, tagsMayContinue)) == null) {
      if (tagsMayContinue && (next >= lines.size() || lines.get(next).isBlank())) {
        // A tag's attributes never span a blank line: an unclosed '<Name' there is text.
        tagsMayContinue = false;
        continue;
      }
      if (next >= lines.size() || next - start >= MAX_SPAN_LINES) {
        throw new Unreadable("the comment or tag on line " + (start + 1) + " never closes");
      }
      text = text + "\n" + lines.get(next++);
    }
    place(tokens, indentOf(text));
  }

  /** Writes a scanned line: its text, with its tags turned into what a reader sees of them. */
  private void place(List<Object> tokens, String indent) {
    boolean tagsOnly = true;
    boolean anyTag = false;
    for (Object token : tokens) {
      if (token instanceof String s) {
        tagsOnly &= s.isBlank();
      } else {
        anyTag = true;
      }
    }
    if (!anyTag) {
      emit(tokens.isEmpty() ? "" : (String) tokens.get(0));
      return;
    }
    var line = new StringBuilder();
    for (Object token : tokens) {
      if (token instanceof String s) {
        line.append(s);
        continue;
      }
      MdxTag tag = (MdxTag) token;
      if (tag.kind() == MdxTag.Kind.OPEN && CALLOUTS.contains(tag.name())) {
        flush(line, indent);
        blank();
        String type = tag.attributes().getOrDefault("type", "");
        if (!CALLOUT_TYPE.matcher(type).matches()) {
          type =
              tag.name().equals("Aside") || tag.name().equals("Admonition") ? "note" : tag.name();
        }
        String title = tag.attributes().getOrDefault("title", "").strip();
        emit(
            indent
                + "[!"
                + type.toLowerCase(Locale.ROOT)
                + "]"
                + (title.isEmpty() ? "" : " ")
                + title,
            indent);
        open.add(new Open(tag.name(), indent, true));
      } else if (tag.kind() == MdxTag.Kind.CLOSE) {
        boolean callout = closesCallout(tag.name());
        if (callout) {
          flush(line, indent); // the callout's last words are quoted with it
        }
        close(tag.name());
        if (callout || tagsOnly) {
          blank();
        }
      } else {
        if (tag.kind() == MdxTag.Kind.OPEN) {
          open.add(new Open(tag.name(), indent, false));
        }
        List<String> shown = tag.visible();
        if (tagsOnly) {
          for (String value : shown) {
            blank();
            emit(indent + value);
            blank();
          }
          blank();
        } else if (!shown.isEmpty()) {
          line.append(' ').append(String.join(" ", shown)).append(' ');
        }
      }
    }
    flush(line, indent);
  }

  /** Whether the innermost open component of this name is a callout. */
  private boolean closesCallout(String name) {
    for (int i = open.size() - 1; i >= 0; i--) {
      if (open.get(i).name.equals(name)) {
        return open.get(i).callout;
      }
    }
    return false;
  }

  /**
   * Closes the innermost open component of this name (and any left open inside it); a closing tag
   * without its opening one is dropped like any other tag.
   */
  private void close(String name) {
    for (int i = open.size() - 1; i >= 0; i--) {
      if (open.get(i).name.equals(name)) {
        open.subList(i, open.size()).clear();
        return;
      }
    }
  }

  private void flush(StringBuilder line, String indent) {
    if (!line.toString().isBlank()) {
      emit(indent + line.toString().strip());
    }
    line.setLength(0);
  }

  private void blank() {
    emit("");
  }

  private void emit(String line) {
    emit(line, null);
  }

  /**
   * Adds a line, quoted for each callout it is in; {@code head} is the indent of the callout whose
   * head line this is. Runs of blank lines outside code collapse into one.
   */
  private void emit(String line, String head) {
    List<Open> callouts = open.stream().filter(Open::callout).toList();
    if (callouts.isEmpty() && head == null) {
      if (line.isBlank() && afterBlank()) {
        return;
      }
      out.add(line);
      return;
    }
    String indent = callouts.isEmpty() ? head : callouts.get(0).indent;
    int depth = callouts.size() + (head != null ? 1 : 0);
    String innermost = head != null ? head : callouts.get(callouts.size() - 1).indent;
    int strip = 0;
    while (strip < innermost.length()
        && strip < line.length()
        && (line.charAt(strip) == ' ' || line.charAt(strip) == '\t')) {
      strip++;
    }
    String quoted = (indent + "> ".repeat(depth) + line.substring(strip)).stripTrailing();
    if (line.isBlank() && !out.isEmpty() && out.get(out.size() - 1).equals(quoted)) {
      return;
    }
    out.add(quoted);
  }

  private static String indentOf(String line) {
    int i = 0;
    while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
      i++;
    }
    return line.substring(0, i);
  }
}
