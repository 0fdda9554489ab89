package dev.brain.index.importer;

import dev.brain.chunking.MarkdownNesting;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.ext.front.matter.YamlFrontMatterExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

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

  /** Dedent passes before lines left as indented code stay so (each pass settles one level). */
  private static final int MAX_DEDENT_PASSES = 8;

  private static final Parser PARSER =
      MarkdownNesting.parser()
          .extensions(List.of(YamlFrontMatterExtension.create()))
          .includeSourceSpans(IncludeSourceSpans.BLOCKS)
          .build();

  /** How many lines one tag, comment or statement may span before the pass gives up. */
  private static final int MAX_SPAN_LINES = 400;

  private static final Pattern FENCE = Pattern.compile("^[ \\t]*(`{3,}|~{3,})(.*)$");
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
    return withoutIndentedCode(String.join("\n", pass.out));
  }

  /**
   * MDX has no indented code blocks (only fenced ones), so its authors indent component content
   * freely; Markdown would show such lines as code. Each line commonmark reads as indented code
   * loses the indent beyond its container's, until none is left (a line that was an indented fence
   * may then open a fenced block, as in MDX).
   */
  static String withoutIndentedCode(String markdown) {
    String text = markdown;
    for (int pass = 0; pass < MAX_DEDENT_PASSES; pass++) {
      var blocks = new ArrayList<List<Integer>>();
      PARSER
          .parse(text)
          .accept(
              new AbstractVisitor() {
                @Override
                public void visit(IndentedCodeBlock block) {
                  blocks.add(block.getSourceSpans().stream().map(s -> s.getInputIndex()).toList());
                }
              });
      if (blocks.isEmpty()) {
        return text;
      }
      // Each block loses the indent its lines share, in columns (a tab to the next multiple of
      // four), so code inside it keeps its own; what is left of a line's indent becomes spaces.
      var cuts = new ArrayList<int[]>();
      for (List<Integer> starts : blocks) {
        int common = Integer.MAX_VALUE;
        for (int start : starts) {
          int end = indentEnd(text, start);
          if (end < text.length() && text.charAt(end) != '\n' && text.charAt(end) != '\r') {
            common = Math.min(common, columns(text, start, end));
          }
        }
        for (int start : starts) {
          int end = indentEnd(text, start);
          cuts.add(new int[] {start, end, Math.max(0, columns(text, start, end) - common)});
        }
      }
      cuts.sort(Comparator.comparingInt((int[] c) -> c[0]).reversed());
      var out = new StringBuilder(text);
      for (int[] cut : cuts) {
        out.replace(cut[0], cut[1], " ".repeat(cut[2]));
      }
      text = out.toString();
    }
    return text;
  }

  private static int indentEnd(String text, int from) {
    int end = from;
    while (end < text.length() && (text.charAt(end) == ' ' || text.charAt(end) == '\t')) {
      end++;
    }
    return end;
  }

  /** The width of the whitespace from {@code from} to {@code end}, tabs to multiples of four. */
  private static int columns(String text, int from, int end) {
    int width = 0;
    for (int i = from; i < end; i++) {
      width = text.charAt(i) == '\t' ? width + 4 - width % 4 : width + 1;
    }
    return width;
  }

  /** A component whose closing tag has not come yet. */
  private record Open(String name, String indent, boolean callout) {}

  private void run() throws Unreadable {
    frontMatter();
    while (next < lines.size()) {
      String line = lines.get(next);
      Matcher fence = FENCE.matcher(line);
      if (fence.matches() && !(fence.group(1).startsWith("`") && fence.group(2).contains("`"))) {
        fencedBlock(fence.group(1));
      } else if (open.isEmpty() && ESM.matcher(line).find() && statementStart()) {
        skipStatement();
      } else {
        logicalLine();
      }
    }
  }

  /** Front matter ({@code ---} YAML or {@code +++} TOML) is copied untouched. */
  private void frontMatter() {
    if (lines.isEmpty()) {
      return;
    }
    String first = lines.get(0).strip();
    if (!first.equals("---") && !first.equals("+++")) {
      return;
    }
    for (int i = 1; i < lines.size(); i++) {
      if (lines.get(i).strip().equals(first)) {
        out.addAll(lines.subList(0, i + 1));
        next = i + 1;
        bodyStart = next;
        return;
      }
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
    emit(lines.get(next++));
    char c = marker.charAt(0);
    Pattern close =
        Pattern.compile(
            "^[ \\t]*" + Pattern.quote(String.valueOf(c)) + "{" + marker.length() + ",}[ \\t]*$");
    while (next < lines.size()) {
      String line = lines.get(next++);
      emit(line);
      if (close.matcher(line).matches()) {
        return;
      }
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
    while ((tokens = Scanner.scan(text, tagsMayContinue)) == null) {
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
      Tag tag = (Tag) token;
      if (tag.kind == Tag.Kind.OPEN && CALLOUTS.contains(tag.name)) {
        flush(line, indent);
        blank();
        String type = tag.attributes.getOrDefault("type", "");
        if (!CALLOUT_TYPE.matcher(type).matches()) {
          type = tag.name.equals("Aside") || tag.name.equals("Admonition") ? "note" : tag.name;
        }
        String title = tag.attributes.getOrDefault("title", "").strip();
        emit(
            indent
                + "[!"
                + type.toLowerCase(Locale.ROOT)
                + "]"
                + (title.isEmpty() ? "" : " ")
                + title,
            indent);
        open.add(new Open(tag.name, indent, true));
      } else if (tag.kind == Tag.Kind.CLOSE) {
        boolean callout = closesCallout(tag.name);
        if (callout) {
          flush(line, indent); // the callout's last words are quoted with it
        }
        close(tag.name);
        if (callout || tagsOnly) {
          blank();
        }
      } else {
        if (tag.kind == Tag.Kind.OPEN) {
          open.add(new Open(tag.name, indent, false));
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

  /** A JSX tag: its name (empty for a fragment), kind and quoted attribute values. */
  private record Tag(String name, Kind kind, Map<String, String> attributes) {
    enum Kind {
      OPEN,
      CLOSE,
      SELF_CLOSING
    }

    List<String> visible() {
      var shown = new ArrayList<String>();
      for (var entry : attributes.entrySet()) {
        if (VISIBLE.contains(entry.getKey()) && !entry.getValue().isBlank()) {
          shown.add(entry.getValue().strip());
        }
      }
      return shown;
    }
  }

  /** Splits a line into text and JSX tags, without comments; code spans are text. */
  private static final class Scanner {
    private final String s;
    private int i;
    private final List<Object> tokens = new ArrayList<>();
    private final StringBuilder text = new StringBuilder();

    private final boolean tagsMayContinue;

    private Scanner(String s, boolean tagsMayContinue) {
      this.s = s;
      this.tagsMayContinue = tagsMayContinue;
    }

    /**
     * The line's tokens (strings and tags), or null when a comment runs past its end, or a tag does
     * while {@code tagsMayContinue} (else the unclosed tag's '<' is text).
     */
    static List<Object> scan(String line, boolean tagsMayContinue) {
      var scanner = new Scanner(line, tagsMayContinue);
      return scanner.run() ? scanner.tokens : null;
    }

    private boolean run() {
      while (i < s.length()) {
        char c = s.charAt(i);
        if (c == '`') {
          codeSpan();
        } else if (c == '{' && comment()) {
          continue;
        } else if (c == '{' && s.startsWith("/*", skipSpace(i + 1))) {
          return false; // a comment that closes on a later line
        } else if (c == '<' && tagStart(i)) {
          if (tagEnd() < 0) {
            if (tagsMayContinue) {
              return false;
            }
            text.append(c);
            i++;
          }
        } else {
          text.append(c);
          i++;
        }
      }
      if (!text.isEmpty() || tokens.isEmpty()) {
        tokens.add(text.toString());
      }
      return true;
    }

    /** A code span is text as it is; a backtick run without its closing run is literal. */
    private void codeSpan() {
      int run = i;
      while (run < s.length() && s.charAt(run) == '`') {
        run++;
      }
      String ticks = s.substring(i, run);
      int close = run;
      while ((close = s.indexOf(ticks, close)) >= 0) {
        int after = close + ticks.length();
        if (after >= s.length() || s.charAt(after) != '`') {
          text.append(s, i, after);
          i = after;
          return;
        }
        while (close < s.length() && s.charAt(close) == '`') {
          close++;
        }
      }
      text.append(ticks);
      i = run;
    }

    /** Drops a complete {@code {/* ... *&#47;}} at {@code i}; false if there is none. */
    private boolean comment() {
      int open = skipSpace(i + 1);
      if (!s.startsWith("/*", open)) {
        return false;
      }
      int end = s.indexOf("*/", open + 2);
      if (end < 0) {
        return false;
      }
      int brace = skipSpace(end + 2);
      if (brace >= s.length() || s.charAt(brace) != '}') {
        return false;
      }
      i = brace + 1;
      return true;
    }

    private int skipSpace(int from) {
      int j = from;
      while (j < s.length() && Character.isWhitespace(s.charAt(j))) {
        j++;
      }
      return j;
    }

    /** {@code <Name}, {@code </Name}, {@code <>} or {@code </>}: a component, not HTML. */
    private boolean tagStart(int at) {
      int j = at + 1;
      if (j < s.length() && s.charAt(j) == '/') {
        j++;
      }
      return j < s.length() && (Character.isUpperCase(s.charAt(j)) || s.charAt(j) == '>');
    }

    /** Reads the tag at {@code i} into a token; -1 if it runs past the line. */
    private int tagEnd() {
      int j = i + 1;
      boolean closing = s.charAt(j) == '/';
      if (closing) {
        j++;
      }
      int nameStart = j;
      while (j < s.length() && isNamePart(s.charAt(j))) {
        j++;
      }
      String name = s.substring(nameStart, j);
      var attributes = new LinkedHashMap<String, String>();
      while (true) {
        j = skipSpace(j);
        if (j >= s.length()) {
          return -1;
        }
        char c = s.charAt(j);
        if (c == '>' || c == '/' && j + 1 < s.length() && s.charAt(j + 1) == '>') {
          Tag.Kind kind =
              closing ? Tag.Kind.CLOSE : c == '/' ? Tag.Kind.SELF_CLOSING : Tag.Kind.OPEN;
          if (!text.isEmpty()) {
            tokens.add(text.toString());
            text.setLength(0);
          }
          tokens.add(new Tag(name, kind, attributes));
          i = j + (c == '/' ? 2 : 1);
          return i;
        }
        if (c == '{') {
          j = balanced(j);
          if (j < 0) {
            return -1;
          }
          continue;
        }
        int keyStart = j;
        while (j < s.length() && isNamePart(s.charAt(j))) {
          j++;
        }
        if (j == keyStart) {
          j++; // a stray character: skipped, the tag still ends at its '>'
          continue;
        }
        String key = s.substring(keyStart, j);
        j = skipSpace(j);
        if (j >= s.length()) {
          return -1;
        }
        if (s.charAt(j) != '=') {
          continue; // a boolean attribute
        }
        j = skipSpace(j + 1);
        if (j >= s.length()) {
          return -1;
        }
        char q = s.charAt(j);
        if (q == '"' || q == '\'') {
          int end = s.indexOf(q, j + 1);
          if (end < 0) {
            return -1;
          }
          attributes.put(key, s.substring(j + 1, end).replaceAll("\\s+", " "));
          j = end + 1;
        } else if (q == '{') {
          j = balanced(j);
          if (j < 0) {
            return -1;
          }
        }
      }
    }

    /** The index after the brace block that opens at {@code from}, strings skipped; -1 if open. */
    private int balanced(int from) {
      int depth = 0;
      char quote = 0;
      for (int j = from; j < s.length(); j++) {
        char c = s.charAt(j);
        if (quote != 0) {
          if (c == '\\') {
            j++;
          } else if (c == quote) {
            quote = 0;
          }
        } else if (c == '"' || c == '\'' || c == '`') {
          quote = c;
        } else if (c == '{') {
          depth++;
        } else if (c == '}' && --depth == 0) {
          return j + 1;
        }
      }
      return -1;
    }

    private static boolean isNamePart(char c) {
      return Character.isLetterOrDigit(c)
          || c == '_'
          || c == '-'
          || c == '.'
          || c == ':'
          || c == '$';
    }
  }
}
