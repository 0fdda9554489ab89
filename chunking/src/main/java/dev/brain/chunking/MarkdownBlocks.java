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
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;

/**
 * A document's top-level blocks as a reader sees them, in order, each with the headings it sits
 * under and where it lies in the text: what an answer quotes, a passage at a time. Parsed by
 * commonmark-java with GFM tables: a heading, a paragraph, a list (one unit per item, nested items
 * deeper), a table (one unit per row, read as one statement: {@code Plan: Plus, Price: 8}, or in a
 * table without header names {@code Dose: 18 g}), a block quote or Obsidian callout (its
 * paragraphs; a callout's {@code [!type] Title} line becomes the block's title), a code block
 * (verbatim, with its language). A top-level HTML block shows only its captions, together one
 * paragraph: a {@code caption} attribute ({@code <Listing number="5-12" caption="Adding the
 * attribute...">} reads "Listing 5-12: Adding the attribute...", as a rendered book shows it) and a
 * {@code <figcaption>} or {@code <caption>} element; the rest of it, thematic breaks and link
 * reference definitions show nothing and are left out; so is a YAML front matter block. Plain text
 * (a PDF's text layer, a transcript) is read as paragraphs between blank lines, a short line
 * without closing punctuation being a heading.
 */
public final class MarkdownBlocks {

  /** Thread-safe: commonmark parsers hold no state between parses. */
  private static final Parser PARSER =
      MarkdownNesting.parser()
          .extensions(List.of(TablesExtension.create()))
          .includeSourceSpans(IncludeSourceSpans.BLOCKS)
          .build();

  /** Longest line of plain text read as a heading. */
  private static final int MAX_PLAIN_HEADING = 80;

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
    Node document = PARSER.parse(markdown.substring(bodyStart));
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
    var out = new ArrayList<Block>();
    if (text == null || text.isBlank()) {
      return out;
    }
    var open = new ArrayList<HeadingAt>();
    var blank = BLANK_LINE.matcher(text);
    int from = 0;
    while (from < text.length()) {
      int end = blank.find(from) ? blank.start() : text.length();
      int next = end < text.length() ? blank.end() : text.length();
      String p = text.substring(from, end).strip();
      if (!p.isEmpty()) {
        int start = from + text.substring(from, end).indexOf(p.charAt(0));
        int level = marked ? markedLevel(p) : unmarkedHeading(p) ? 1 : 0;
        String shown =
            level > 0 && marked ? p.substring(level + 1) : p.startsWith("\\#") ? p.substring(1) : p;
        String line = MarkdownText.strip(shown);
        var unit = new Unit(line, line, List.of(), List.of(), 0, false);
        if (level > 0) {
          int at = level;
          open.removeIf(h -> h.level() >= at);
          out.add(
              new Block(
                  Kind.HEADING, level, pathOf(open), "", false, 0, List.of(unit), start, end));
          open.add(new HeadingAt(level, line));
        } else {
          out.add(
              new Block(Kind.PARAGRAPH, 0, pathOf(open), "", false, 0, List.of(unit), start, end));
        }
      }
      from = Math.max(next, from + 1);
    }
    return out;
  }

  /** A blank line: what separates paragraphs of plain text. */
  private static final java.util.regex.Pattern BLANK_LINE =
      java.util.regex.Pattern.compile("\\n\\s*\\n");

  /** A heading line of plain text that marks its headings: {@code #} to {@code ######}, a space. */
  private static final java.util.regex.Pattern MARKED_HEADING =
      java.util.regex.Pattern.compile(
          "(?m)(?:\\A|\\n\\s*\\n)#{1,6} \\S[^\\n]*(?:\\n\\s*\\n|\\s*\\z)");

  /**
   * Whether plain text marks its headings: a one-line paragraph opens with one to six {@code #} and
   * a space.
   */
  public static boolean marksHeadings(String text) {
    return MARKED_HEADING.matcher(text).find();
  }

  /** The level of a marked heading paragraph ({@code ## 4. Descaling} is 2), or 0. */
  private static int markedLevel(String p) {
    int hashes = 0;
    while (hashes < p.length() && p.charAt(hashes) == '#') {
      hashes++;
    }
    return hashes >= 1
            && hashes <= 6
            && hashes + 1 < p.length()
            && p.charAt(hashes) == ' '
            && !Character.isWhitespace(p.charAt(hashes + 1))
            && !p.contains("\n")
        ? hashes
        : 0;
  }

  /** A short one-line paragraph without closing punctuation or a colon. */
  private static boolean unmarkedHeading(String p) {
    return !p.contains("\n")
        && !p.contains(":")
        && p.length() <= MAX_PLAIN_HEADING
        && ".!?:;,".indexOf(p.charAt(p.length() - 1)) < 0;
  }

  private record HeadingAt(int level, String text) {}

  private static List<String> pathOf(List<HeadingAt> open) {
    return open.stream().map(HeadingAt::text).toList();
  }

  private static Block block(Node n, List<String> path, int offset) {
    int start = offset + start(n);
    int end = offset + end(n);
    return switch (n) {
      case Heading h -> {
        Unit u = unit(Inline.of(h), 0);
        yield u == null
            ? null
            : new Block(Kind.HEADING, h.getLevel(), path, "", false, 0, List.of(u), start, end);
      }
      case Paragraph p -> {
        Unit u = unit(Inline.of(p), 0);
        yield u == null
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
      case HtmlBlock h -> caption(h.getLiteral(), path, start, end);
      default -> null;
    };
  }

  /**
   * The captions of an HTML block as one paragraph, or null when it has none: a figure's or a
   * listing's caption is what a reader sees of it, and often the one place that names what the code
   * (or image) shows. A caption is read as the author's inline Markdown (authors write {@code
   * `Box`} in captions too), as written when it does not parse as one paragraph or its text holds a
   * {@code <} the HTML escaped; an element with a {@code caption} and a {@code number} attribute is
   * named by its tag and number, as a rendered book labels it. A block without the word "caption"
   * is not parsed at all (comments, {@code <div>}, {@code <img>}).
   */
  private static Block caption(String html, List<String> path, int start, int end) {
    if (!html.toLowerCase(java.util.Locale.ROOT).contains("caption")) {
      return null;
    }
    var units = new java.util.LinkedHashSet<Unit>();
    for (Element e :
        Jsoup.parseBodyFragment(html).body().select("[caption], figcaption, caption")) {
      if (e.hasAttr("caption")) {
        String number = e.attr("number").strip();
        String tag = e.tagName();
        String label =
            number.isEmpty()
                ? ""
                : Character.toUpperCase(tag.charAt(0)) + tag.substring(1) + " " + number + ": ";
        add(units, inlineCaption(label, e.attr("caption")));
      } else {
        // Its text as the parser decoded it: "Vec&lt;T&gt;" is text, never a tag to drop.
        String text = e.text();
        add(units, text.contains("<") ? plainCaption(text) : inlineCaption("", text));
      }
    }
    if (units.isEmpty()) {
      return null;
    }
    Unit one =
        new Unit(
            String.join(" ", units.stream().map(Unit::text).toList()),
            String.join(" ", units.stream().map(Unit::markdown).toList()),
            units.stream().flatMap(u -> u.links().stream()).toList(),
            units.stream().flatMap(u -> u.targets().stream()).toList(),
            0,
            false);
    return new Block(Kind.PARAGRAPH, 0, path, "", false, 0, List.of(one), start, end);
  }

  /**
   * A caption attribute after {@code label}, read as inline Markdown ({@code `Box<dyn Fn>`} kept as
   * code); as written when it does not parse as one paragraph (it opens like a list or a heading).
   */
  private static Unit inlineCaption(String label, String caption) {
    Node parsed = PARSER.parse(caption.strip());
    if (parsed.getFirstChild() instanceof Paragraph p && p.getNext() == null) {
      Inline inline = Inline.of(p);
      return unit(
          new Inline(
              label + inline.text(), label + inline.markdown(), inline.links(), inline.targets()),
          0);
    }
    return plainCaption(label + caption);
  }

  /** A caption shown as written. */
  private static Unit plainCaption(String caption) {
    String text = MarkdownText.strip(caption);
    return text.isEmpty() ? null : new Unit(text, text, List.of(), List.of(), 0, false);
  }

  /** A block quote; a callout ({@code > [!info]+ Title}) loses its marker, its title kept apart. */
  private static Block quote(BlockQuote q, List<String> path, int start, int end) {
    var units = new ArrayList<Unit>();
    String title = "";
    for (Node n = q.getFirstChild(); n != null; n = n.getNext()) {
      if (n instanceof Paragraph p && n == q.getFirstChild()) {
        Inline inline = Inline.of(p);
        String text = inline.text();
        if (text.startsWith("[!")) {
          int close = text.indexOf(']');
          int lineEnd = text.indexOf('\n');
          if (close > 0 && (lineEnd < 0 || close < lineEnd)) {
            title = calloutTitle(text.substring(close + 1, lineEnd < 0 ? text.length() : lineEnd));
            int mdLineEnd = inline.markdown().indexOf('\n');
            inline =
                lineEnd < 0
                    ? new Inline("", "", List.of(), List.of())
                    : new Inline(
                        text.substring(lineEnd + 1),
                        inline.markdown().substring(mdLineEnd + 1),
                        inline.links(),
                        inline.targets());
          }
        }
        add(units, unit(inline, 0));
      } else {
        contents(n, 0, units);
      }
    }
    if (units.isEmpty() && title.isEmpty()) {
      return null;
    }
    return new Block(Kind.QUOTE, 0, path, title, false, 0, units, start, end);
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
      case BlockQuote q -> {
        for (Node c = q.getFirstChild(); c != null; c = c.getNext()) {
          contents(c, depth, out);
        }
      }
      case Heading h -> add(out, unit(Inline.of(h), depth));
      default -> {}
    }
  }

  private static void add(java.util.Collection<Unit> out, Unit unit) {
    if (unit != null) {
      out.add(unit);
    }
  }

  private static Unit unit(Inline inline, int depth) {
    String text = MarkdownText.strip(inline.text());
    return text.isEmpty()
        ? null
        : new Unit(
            text,
            MarkdownText.strip(inline.markdown()),
            inline.links(),
            inline.targets(),
            depth,
            false);
  }

  /** A code block: its contents verbatim, shown fenced with its language. */
  private static Unit code(String literal, String info) {
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
