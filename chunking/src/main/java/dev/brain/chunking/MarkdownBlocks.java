package dev.brain.chunking;

import java.util.ArrayList;
import java.util.List;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.BlockQuote;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.ListBlock;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.OrderedList;
import org.commonmark.node.Paragraph;
import org.commonmark.node.SourceSpan;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/**
 * A document's top-level blocks as a reader sees them, in order, each with the headings it sits
 * under and where it lies in the text: what an answer quotes, a passage at a time. Parsed by
 * commonmark-java with GFM tables: a heading, a paragraph, a list (one unit per item, nested items
 * deeper), a table (one unit per row, read as one statement: {@code Plan: Plus, Price: 8}, or in a
 * table without header names {@code Dose: 18 g}), a block quote or Obsidian callout (its
 * paragraphs; a callout's {@code [!type] Title} line becomes the block's title), a code block
 * (verbatim, with its language). A top-level HTML block shows what a browser shows of it ({@link
 * HtmlBlocks}; an HTML table or list is read whole across blank lines inside it, {@link
 * HtmlContainers}): its captions, together one paragraph, when it has any; else its {@code <pre>}
 * text as a code block; else its text by elements (a {@code <dt>} with its {@code <dd>} as one
 * item, {@code <li>} items, table rows, paragraphs). Captions: a {@code caption} attribute ({@code
 * <Listing number="5-12" caption="Adding the attribute...">} reads "Listing 5-12: Adding the
 * attribute...", as a rendered book shows it) and a {@code <figcaption>} or {@code <caption>}
 * element; the rest of it, thematic breaks and link reference definitions show nothing and are left
 * out; so are a YAML front matter block and a paragraph of template directives ({@link
 * #directives}). Plain text (a PDF's text layer, a transcript) is read as paragraphs between blank
 * lines, a short line without closing punctuation being a heading.
 */
public final class MarkdownBlocks {

  /** Thread-safe: commonmark parsers hold no state between parses. */
  static final Parser PARSER = builder().build();

  private static Parser.Builder builder() {
    return MarkdownNesting.parser()
        .extensions(List.of(TablesExtension.create()))
        .includeSourceSpans(IncludeSourceSpans.BLOCKS);
  }

  /**
   * A parser for {@code text} alone: {@link #PARSER}'s, whose HTML tables and lists run past their
   * blank lines ({@link HtmlContainers}, which looks ahead in the text).
   */
  private static Parser parser(String text) {
    return HtmlContainers.mayHold(text)
        ? builder().customBlockParserFactory(new HtmlContainers(text)).build()
        : PARSER;
  }

  private MarkdownBlocks() {}

  /** What a block is. */
  public enum Kind {
    HEADING,
    PARAGRAPH,
    LIST,
    TABLE,
    QUOTE,
    CODE
  }

  /**
   * One thing a block shows: a heading's or paragraph's text, a list item, a table row, a code
   * block's contents.
   *
   * @param text plain text on one line (inline whitespace collapsed); a code unit's text is its
   *     contents, lines kept
   * @param markdown how an answer shows it: inline code in backticks; a code unit fenced, with its
   *     language
   * @param links the visible text of each link and wikilink in it
   * @param targets what each of {@code links} points to, in the same order: a wikilink's note
   *     (without its heading: {@code [[Plantar fasciitis|my heel]]} points to "Plantar fasciitis"),
   *     a Markdown link's destination as written
   * @param depth nesting of a list item (0 for a top-level item and everything else)
   * @param code whether it is a code block (inside a list or quote, or the block itself)
   */
  public record Unit(
      String text,
      String markdown,
      List<String> links,
      List<String> targets,
      int depth,
      boolean code) {

    public Unit {
      links = List.copyOf(links);
      targets = List.copyOf(targets);
    }
  }

  /**
   * A top-level block.
   *
   * @param kind what it is
   * @param level a heading's level (1-6), else 0
   * @param headingPath the headings it sits under, outermost first (a heading's own path ends with
   *     its parents)
   * @param title a callout's title, or empty
   * @param ordered whether a list is numbered
   * @param firstNumber the first number of a numbered list
   * @param units what it shows, in order
   * @param start offset of its first character in the text
   * @param end offset after its last character
   */
  public record Block(
      Kind kind,
      int level,
      List<String> headingPath,
      String title,
      boolean ordered,
      int firstNumber,
      List<Unit> units,
      int start,
      int end) {

    public Block {
      headingPath = List.copyOf(headingPath);
      units = List.copyOf(units);
    }

    /** Its units' text, joined by spaces. */
    public String text() {
      return String.join(" ", units.stream().map(Unit::text).toList());
    }
  }

  /**
   * The blocks of a record's text: Markdown ({@link #of(String)}) or plain text ({@link
   * #ofPlainText}), as {@link MarkdownText#isMarkdown} says of its source type.
   */
  public static List<Block> of(String text, boolean markdown) {
    return markdown ? of(text) : ofPlainText(text);
  }

  /** The blocks of {@code markdown}, in document order; blocks that show nothing are left out. */
  public static List<Block> of(String markdown) {
    var out = new ArrayList<Block>();
    if (markdown == null || markdown.isBlank()) {
      return out;
    }
    int bodyStart = MarkdownSections.frontMatterEnd(markdown);
    String body = markdown.substring(bodyStart);
    Node document = parser(body).parse(body);
    var path = new ArrayList<HeadingAt>();
    for (Node n = document.getFirstChild(); n != null; n = n.getNext()) {
      if (n instanceof Heading h) {
        path.removeIf(open -> open.level >= h.getLevel());
      }
      Block block = block(n, pathOf(path), bodyStart);
      if (block == null) {
        continue;
      }
      if (block.kind() == Kind.HEADING) {
        path.add(new HeadingAt(block.level(), block.units().getFirst().text()));
      }
      out.add(block);
    }
    return out;
  }

  /**
   * The paragraphs of plain text (a PDF's text layer, a transcript): blocks between blank lines,
   * each on one line; nothing is read as Markdown syntax. Headings: when the text marks them, a
   * one-line paragraph opening with one to six {@code #} and a space ("## 4. Descaling", as the PDF
   * importer writes the lines a PDF sets larger, writing {@code \\#} for a paragraph that opens
   * with {@code #} and is none), nested by their number; else a short one-line paragraph without
   * closing punctuation or a colon ("4. Descaling", not "Backflush: every 200 shots").
   */
  public static List<Block> ofPlainText(String text) {
    return text == null || text.isBlank()
        ? new ArrayList<>()
        : ofPlainText(text, marksHeadings(text));
  }

  /** {@link #ofPlainText(String)} once it is known whether {@code text} marks its headings. */
  static List<Block> ofPlainText(String text, boolean marked) {
    return PlainTextBlocks.of(text, marked);
  }

  /**
   * Whether plain text marks its headings: a one-line paragraph opens with one to six {@code #} and
   * a space.
   */
  public static boolean marksHeadings(String text) {
    return PlainTextBlocks.marksHeadings(text);
  }

  record HeadingAt(int level, String text) {}

  static List<String> pathOf(List<HeadingAt> open) {
    return open.stream().map(HeadingAt::text).toList();
  }

  private static Block block(Node n, List<String> path, int offset) {
    int start = offset + start(n);
    int end = offset + end(n);
    return switch (n) {
      case Heading h -> {
        Unit u = heading(h, 0);
        yield u == null
            ? null
            : new Block(Kind.HEADING, h.getLevel(), path, "", false, 0, List.of(u), start, end);
      }
      case Paragraph p -> {
        Unit u = unit(Inline.of(p), 0);
        yield u == null || directives(u.markdown())
            ? null
            : new Block(Kind.PARAGRAPH, 0, path, "", false, 0, List.of(u), start, end);
      }
      case FencedCodeBlock f ->
          new Block(
              Kind.CODE,
              0,
              path,
              "",
              false,
              0,
              List.of(code(f.getLiteral(), f.getInfo())),
              start,
              end);
      case IndentedCodeBlock c ->
          new Block(
              Kind.CODE, 0, path, "", false, 0, List.of(code(c.getLiteral(), "")), start, end);
      case ListBlock l -> {
        var units = new ArrayList<Unit>();
        items(l, 0, units);
        int first = l instanceof OrderedList o ? o.getMarkerStartNumber() : 0;
        yield units.isEmpty()
            ? null
            : new Block(Kind.LIST, 0, path, "", l instanceof OrderedList, first, units, start, end);
      }
      case TableBlock t -> {
        List<Unit> rows = MarkdownTables.rows(t);
        yield rows.isEmpty()
            ? null
            : new Block(Kind.TABLE, 0, path, "", false, 0, rows, start, end);
      }
      case BlockQuote q -> quote(q, path, start, end);
      case HtmlBlock h -> HtmlBlocks.block(h.getLiteral(), path, start, end);
      default -> null;
    };
  }

  /** A block quote; a callout ({@code > [!info]+ Title}) loses its marker, its title kept apart. */
  private static Block quote(BlockQuote q, List<String> path, int start, int end) {
    var units = new ArrayList<Unit>();
    String title = "";
    for (Node n = q.getFirstChild(); n != null; n = n.getNext()) {
      if (n instanceof Paragraph p && n == q.getFirstChild()) {
        Callout head = callout(Inline.of(p));
        title = head.title();
        add(units, unit(head.rest(), 0));
      } else {
        contents(n, 0, units);
      }
    }
    if (units.isEmpty() && title.isEmpty()) {
      return null;
    }
    return new Block(Kind.QUOTE, 0, path, title, false, 0, units, start, end);
  }

  /**
   * A callout's title (empty for none, or for a quote that is no callout), as text and as Markdown,
   * and its first text.
   */
  private record Callout(String title, String markdownTitle, Inline rest) {}

  /** The {@code [!type] Title} line of a quote's first paragraph taken apart from its text. */
  private static Callout callout(Inline inline) {
    String title = afterMarker(inline.text());
    if (title == null) {
      return new Callout("", "", inline);
    }
    String markdownTitle = afterMarker(inline.markdown());
    boolean oneLine = inline.text().indexOf('\n') < 0;
    Inline rest =
        oneLine
            ? new Inline("", "", List.of(), List.of())
            : new Inline(
                afterFirstLine(inline.text()),
                afterFirstLine(inline.markdown()),
                inline.links(),
                inline.targets());
    return new Callout(
        calloutTitle(title), calloutTitle(markdownTitle == null ? title : markdownTitle), rest);
  }

  /**
   * What follows a callout's {@code [!type]} marker on the first line of {@code s}; null when
   * {@code s} opens with none.
   */
  private static String afterMarker(String s) {
    int close = s.indexOf(']');
    int lineEnd = s.indexOf('\n');
    return s.startsWith("[!") && close > 0 && (lineEnd < 0 || close < lineEnd)
        ? s.substring(close + 1, lineEnd < 0 ? s.length() : lineEnd)
        : null;
  }

  /** {@code s} after its first line. */
  private static String afterFirstLine(String s) {
    return s.substring(s.indexOf('\n') + 1);
  }

  /**
   * A callout inside a list item or another callout, as units of {@code depth}: its title leads its
   * first paragraph ("Needs root: Run it with sudo."), not its {@code [!type]} marker.
   */
  private static void nestedQuote(BlockQuote q, int depth, List<Unit> out) {
    for (Node c = q.getFirstChild(); c != null; c = c.getNext()) {
      if (c instanceof Paragraph p && c == q.getFirstChild()) {
        Callout head = callout(Inline.of(p));
        Inline rest = head.rest();
        String title = head.title();
        if (!title.isEmpty()) {
          // "Why?" and "Note:" end as they are; other titles take a colon before their text.
          String join =
              MarkdownText.strip(rest.text()).isEmpty()
                  ? null
                  : title.matches(".*[:.?!]") ? " " : ": ";
          String markdownTitle = head.markdownTitle();
          rest =
              new Inline(
                  join == null ? title : title + join + rest.text(),
                  join == null ? markdownTitle : markdownTitle + join + rest.markdown(),
                  rest.links(),
                  rest.targets());
        }
        add(out, unit(rest, depth));
      } else {
        contents(c, depth, out);
      }
    }
  }

  /** Longest line read as a template directive: they are short, and a long line is text. */
  private static final int MAX_DIRECTIVE = 400;

  /**
   * Template placeholders or directives with nothing else on a line: {@code {{#include
   * opt-common.md}}} (mdBook), {@code {% raw %}} (Liquid, Jinja), {@code {{ content }}}.
   */
  private static final java.util.regex.Pattern DIRECTIVE =
      java.util.regex.Pattern.compile(
          "\\s*(?:(?:\\{\\{(?:[^}]|}(?!}))*}}|\\{%(?:[^%]|%(?!}))*%})\\s*)+");

  /**
   * A directive that includes another file: {@code {{#include file.rs}}}, {@code {{#rustdoc_include
   * …}}} (mdBook), {@code {% include note.html %}}, {@code {% include_relative … %}} (Liquid,
   * Jinja).
   */
  private static final java.util.regex.Pattern INCLUDE =
      java.util.regex.Pattern.compile(
          "\\s*(?:\\{\\{#\\w*include\\b[^}]*}}|\\{%-?\\s*include(?:_relative)?\\b[^%]*%})\\s*");

  /**
   * Whether every non-blank line of {@code text} only stands for other text, a template's
   * placeholder or directive (a paragraph of them shows nothing; read in the Markdown, where a code
   * span keeps its backticks).
   */
  public static boolean directives(String text) {
    return everyLine(text, DIRECTIVE);
  }

  /**
   * Whether every non-blank line of {@code code} includes another file: the site shows a listing
   * kept elsewhere, which is not here. A template example ({@code {% for post in site.posts %}}) is
   * code.
   */
  public static boolean includes(String code) {
    return everyLine(code, INCLUDE);
  }

  private static boolean everyLine(String text, java.util.regex.Pattern line) {
    // Read for every paragraph parsed: text without a template's braces is answered at once.
    if (!text.contains("{{") && !text.contains("{%")) {
      return false;
    }
    List<String> lines = text.lines().filter(l -> !l.isBlank()).toList();
    // A long line is text (and the pattern's loop stays shallow).
    return !lines.isEmpty()
        && lines.stream().allMatch(l -> l.length() <= MAX_DIRECTIVE && line.matcher(l).matches());
  }

  /** "+ Title" of "[!info]+ Title": the fold sign belongs to the marker. */
  private static String calloutTitle(String line) {
    String title = MarkdownText.strip(line);
    if (title.startsWith("+") || title.startsWith("-")) {
      title = title.substring(1).strip();
    }
    return title;
  }

  /** The items of a list, each item one unit; nested lists' items follow, one deeper. */
  private static void items(ListBlock list, int depth, List<Unit> out) {
    for (Node item = list.getFirstChild(); item != null; item = item.getNext()) {
      if (!(item instanceof ListItem)) {
        contents(item, depth, out); // a block lifted out of items nested past the cap
        continue;
      }
      var text = new StringBuilder();
      var markdown = new StringBuilder();
      var links = new ArrayList<String>();
      var targets = new ArrayList<String>();
      var after = new ArrayList<Unit>();
      for (Node c = item.getFirstChild(); c != null; c = c.getNext()) {
        if (c instanceof Paragraph p && after.isEmpty()) {
          Inline inline = Inline.of(p);
          text.append(text.isEmpty() ? "" : " ").append(inline.text());
          markdown.append(markdown.isEmpty() ? "" : " ").append(inline.markdown());
          links.addAll(inline.links());
          targets.addAll(inline.targets());
        } else {
          contents(c, depth + 1, after);
        }
      }
      add(out, unit(new Inline(text.toString(), markdown.toString(), links, targets), depth));
      out.addAll(after);
    }
  }

  /** What a block nested in a list item or quote shows, as units of {@code depth}. */
  private static void contents(Node n, int depth, List<Unit> out) {
    switch (n) {
      case Paragraph p -> add(out, unit(Inline.of(p), depth));
      case ListBlock l -> items(l, depth, out);
      case FencedCodeBlock f -> out.add(code(f.getLiteral(), f.getInfo()));
      case IndentedCodeBlock c -> out.add(code(c.getLiteral(), ""));
      case TableBlock t -> out.addAll(MarkdownTables.rows(t));
      case BlockQuote q -> nestedQuote(q, depth, out);
      case Heading h -> add(out, heading(h, depth));
      default -> {}
    }
  }

  static void add(java.util.Collection<Unit> out, Unit unit) {
    if (unit != null) {
      out.add(unit);
    }
  }

  static Unit unit(Inline inline, int depth) {
    Inline shown = withoutAttributeLines(inline);
    String text = MarkdownText.strip(shown.text());
    return text.isEmpty()
        ? null
        : new Unit(
            text,
            MarkdownText.strip(shown.markdown()),
            shown.links(),
            shown.targets(),
            depth,
            false);
  }

  /**
   * {@code inline} without a kramdown attribute list on its first or last line ({@code {: .note
   * .info}} over a paragraph), which the site turns into a class and does not show. Read in the
   * Markdown, which keeps code spans' backticks: {@code `{:#x}`} is text.
   */
  private static Inline withoutAttributeLines(Inline inline) {
    if (!inline.markdown().contains("{:")) {
      return inline;
    }
    List<String> markdown = new ArrayList<>(inline.markdown().lines().toList());
    List<String> text = new ArrayList<>(inline.text().lines().toList());
    boolean changed = false;
    for (int end = 0; end < 2 && !markdown.isEmpty(); end++) {
      int at = end == 0 ? 0 : markdown.size() - 1;
      String line = markdown.get(at).strip();
      if (text.size() == markdown.size()
          && MarkdownText.blockAttributes(line)
          && text.get(at).strip().equals(line)) {
        markdown.remove(at);
        text.remove(at);
        changed = true;
      }
    }
    return changed
        ? new Inline(
            String.join("\n", text), String.join("\n", markdown), inline.links(), inline.targets())
        : inline;
  }

  /** A heading's unit, without the attribute list that gives it an id ({@code {#type-layout}}). */
  private static Unit heading(Heading h, int depth) {
    Unit u = unit(Inline.of(h), depth);
    int attributes = u == null ? 0 : MarkdownText.headingAttributes(u.markdown());
    if (attributes == 0) {
      return u;
    }
    String list = u.markdown().substring(u.markdown().length() - attributes);
    String text =
        u.text().endsWith(list) ? u.text().substring(0, u.text().length() - attributes) : u.text();
    return new Unit(
        text.strip(),
        u.markdown().substring(0, u.markdown().length() - attributes).strip(),
        u.links(),
        u.targets(),
        depth,
        false);
  }

  /** A code block: its contents verbatim, shown fenced with its language. */
  static Unit code(String literal, String info) {
    String body = literal.endsWith("\n") ? literal : literal + "\n";
    String language = info == null ? "" : info.strip().split("[\\s,]", 2)[0];
    String fence = body.contains("```") ? "~~~" : "```";
    return new Unit(
        body.stripTrailing(),
        fence + language + "\n" + body + fence,
        List.of(),
        List.of(),
        0,
        true);
  }

  private static int start(Node n) {
    List<SourceSpan> spans = n.getSourceSpans();
    return spans.isEmpty() ? 0 : spans.getFirst().getInputIndex();
  }

  private static int end(Node n) {
    List<SourceSpan> spans = n.getSourceSpans();
    if (spans.isEmpty()) {
      return 0;
    }
    SourceSpan last = spans.getLast();
    return last.getInputIndex() + last.getLength();
  }
}
