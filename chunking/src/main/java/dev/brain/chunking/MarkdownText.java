package dev.brain.chunking;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableBody;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableHead;
import org.commonmark.ext.gfm.tables.TableRow;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.BlockQuote;
import org.commonmark.node.Code;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.Link;
import org.commonmark.node.LinkReferenceDefinition;
import org.commonmark.node.ListBlock;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.Paragraph;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.Text;
import org.commonmark.node.ThematicBreak;
import org.commonmark.parser.Parser;

/**
 * Markdown rendered as the text a reader sees, block by block: the extractive synthesizer quotes
 * sentences from these blocks and retrieval cuts excerpts from {@link #visibleText}, so no Markdown
 * syntax reaches an answer or an excerpt. Headings are kept apart (they open sections, they state
 * nothing); code blocks, HTML and thematic breaks are dropped; an Obsidian callout ({@code >
 * [!info]+ Title}) loses its marker and its title becomes a heading; links and wikilinks ({@code
 * [[Note|shown]]}) become their visible text, images nothing; a table row becomes one statement,
 * each cell after its column's header ({@code Plan: Plus, Price: 8}), or in a table without header
 * names, the row's first cell before the rest ({@code Dose: 18 g}).
 */
public final class MarkdownText {

  /** Thread-safe: commonmark parsers hold no state between parses. */
  private static final Parser PARSER =
      Parser.builder().extensions(List.of(TablesExtension.create())).build();

  private MarkdownText() {}

  /**
   * A block of visible text.
   *
   * @param text the block's text on one line (inline whitespace collapsed)
   * @param heading whether it is a heading (or a callout's title)
   * @param links the visible text of each link and wikilink in the block: a sentence that is little
   *     more than these ("See Reciprocal rank fusion.") points elsewhere rather than states
   */
  public record Block(String text, boolean heading, List<String> links) {}

  /** Source types whose stored text is plain text (a PDF's text layer, a transcript). */
  private static final Set<String> PLAIN_TEXT_TYPES = Set.of("pdf", "transcript");

  /**
   * Whether a record of {@code sourceType} stores Markdown (notes, and text converted from HTML or
   * feeds) rather than plain text with hard line breaks (PDFs, transcripts).
   */
  public static boolean isMarkdown(String sourceType) {
    return !PLAIN_TEXT_TYPES.contains(sourceType);
  }

  /**
   * The blocks of {@code markdown}, in document order; blank blocks and code blocks are left out.
   */
  public static List<Block> blocks(String markdown) {
    return blocks(markdown, false);
  }

  private static List<Block> blocks(String markdown, boolean keepCode) {
    var out = new ArrayList<Block>();
    if (markdown == null || markdown.isBlank()) {
      return out;
    }
    collect(PARSER.parse(markdown), out, false, keepCode);
    return out;
  }

  /**
   * The text a reader sees in {@code text}, on one line: with {@code markdown}, its blocks (as
   * {@link #blocks}, but code blocks keep their contents, without the fences) joined by spaces;
   * otherwise the plain text with whitespace runs collapsed.
   */
  public static String visibleText(String text, boolean markdown) {
    if (text == null) {
      return "";
    }
    if (!markdown) {
      return strip(text);
    }
    return String.join(" ", blocks(text, true).stream().map(Block::text).toList());
  }

  /** Longest line of plain text read as a heading. */
  private static final int MAX_PLAIN_HEADING = 80;

  /**
   * The paragraphs of plain text (a PDF's text layer, a transcript): blocks between blank lines,
   * each on one line; nothing is read as Markdown syntax. A short one-line paragraph without
   * closing punctuation or a colon ("4. Descaling", not "Backflush: every 200 shots") is a heading.
   */
  public static List<Block> plainBlocks(String text) {
    var out = new ArrayList<Block>();
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String paragraph : text.split("\\n\\s*\\n")) {
      String p = paragraph.strip();
      boolean heading =
          !p.contains("\n")
              && !p.contains(":")
              && p.length() <= MAX_PLAIN_HEADING
              && !p.isEmpty()
              && ".!?:;,".indexOf(p.charAt(p.length() - 1)) < 0;
      add(out, p, heading, List.of());
    }
    return out;
  }

  private static void collect(Node parent, List<Block> out, boolean inQuote, boolean keepCode) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNext()) {
      switch (n) {
        case Heading h -> add(out, inline(h, new ArrayList<>()), true, List.of());
        case Paragraph p -> paragraph(p, out, inQuote && p == parent.getFirstChild());
        case BlockQuote q -> collect(q, out, true, keepCode);
        case ListBlock l -> collect(l, out, inQuote, keepCode);
        case ListItem i -> collect(i, out, false, keepCode);
        case TableBlock t -> table(t, out);
        case FencedCodeBlock f -> add(out, keepCode ? f.getLiteral() : "", false, List.of());
        case IndentedCodeBlock c -> add(out, keepCode ? c.getLiteral() : "", false, List.of());
        case HtmlBlock ignored -> {}
        case ThematicBreak ignored -> {}
        case LinkReferenceDefinition ignored -> {}
        default -> collect(n, out, inQuote, keepCode);
      }
    }
  }

  /** A paragraph; the first one of a quote may open with a callout marker line. */
  private static void paragraph(Paragraph p, List<Block> out, boolean firstInQuote) {
    var links = new ArrayList<String>();
    String text = lines(p, links);
    if (firstInQuote && text.startsWith("[!")) {
      int close = text.indexOf(']');
      int lineEnd = text.indexOf('\n');
      if (close > 0 && (lineEnd < 0 || close < lineEnd)) {
        String titleLine = text.substring(close + 1, lineEnd < 0 ? text.length() : lineEnd);
        // "[!info]+ Title": the fold sign belongs to the marker.
        String title = strip(titleLine);
        if (title.startsWith("+") || title.startsWith("-")) {
          title = title.substring(1);
        }
        add(out, title, true, List.of());
        text = lineEnd < 0 ? "" : text.substring(lineEnd + 1);
      }
    }
    add(out, text, false, links);
  }

  private static void table(TableBlock table, List<Block> out) {
    List<String> header = new ArrayList<>();
    for (Node section = table.getFirstChild(); section != null; section = section.getNext()) {
      for (Node row = section.getFirstChild(); row != null; row = row.getNext()) {
        if (!(row instanceof TableRow)) {
          continue;
        }
        List<String> cells = new ArrayList<>();
        var links = new ArrayList<String>();
        for (Node cell = row.getFirstChild(); cell != null; cell = cell.getNext()) {
          if (cell instanceof TableCell) {
            cells.add(inline(cell, links));
          }
        }
        if (section instanceof TableHead) {
          header = cells;
        } else if (section instanceof TableBody) {
          add(out, tableRow(header, cells), false, links);
        }
      }
    }
  }

  private static String tableRow(List<String> header, List<String> cells) {
    if (header.stream().allMatch(String::isBlank) && cells.size() > 1 && !cells.get(0).isBlank()) {
      // A key-value table ("| | |" header): "Dose: 18 g", not "Dose, 18 g".
      String rest =
          String.join(
              ", ", cells.subList(1, cells.size()).stream().filter(c -> !c.isBlank()).toList());
      return rest.isEmpty() ? cells.get(0) + "." : cells.get(0) + ": " + rest + ".";
    }
    var parts = new ArrayList<String>();
    for (int i = 0; i < cells.size(); i++) {
      String cell = cells.get(i);
      if (cell.isBlank()) {
        continue;
      }
      String name = i < header.size() ? header.get(i) : "";
      parts.add(name.isBlank() ? cell : name + ": " + cell);
    }
    return parts.isEmpty() ? "" : String.join(", ", parts) + ".";
  }

  private static void add(List<Block> out, String text, boolean heading, List<String> links) {
    String t = strip(text);
    if (!t.isEmpty()) {
      out.add(new Block(t, heading, List.copyOf(links)));
    }
  }

  /** Inline text on one line; the visible texts of its links are added to {@code links}. */
  private static String inline(Node node, List<String> links) {
    return strip(lines(node, links));
  }

  /**
   * Inline text with soft line breaks kept as {@code \n} (a callout marker ends its line); the
   * visible texts of its links and wikilinks are added to {@code links}.
   */
  private static String lines(Node node, List<String> links) {
    var sb = new StringBuilder();
    appendInline(node, sb, links);
    return wikilinksShown(sb.toString(), links);
  }

  private static void appendInline(Node node, StringBuilder out, List<String> links) {
    for (Node c = node.getFirstChild(); c != null; c = c.getNext()) {
      switch (c) {
        case Text t -> out.append(t.getLiteral());
        case Code code -> out.append(code.getLiteral());
        case SoftLineBreak ignored -> out.append('\n');
        case HardLineBreak ignored -> out.append('\n');
        case Image ignored -> {}
        case HtmlInline ignored -> {}
        case Link link -> {
          int start = out.length();
          appendInline(link, out, links);
          addLink(links, out.substring(start));
        }
        default -> appendInline(c, out, links);
      }
    }
  }

  private static void addLink(List<String> links, String shown) {
    String text = strip(shown);
    if (!text.isEmpty()) {
      links.add(text);
    }
  }

  /**
   * Wikilinks as their visible text: {@code [[Note|shown]]} → shown, {@code [[Note#Part]]} → Note
   * Part, {@code ![[embed.png]]} → nothing; each shown text is added to {@code links}.
   */
  private static String wikilinksShown(String s, List<String> links) {
    int open = s.indexOf("[[");
    if (open < 0) {
      return s;
    }
    var out = new StringBuilder();
    int from = 0;
    while (open >= 0) {
      int close = s.indexOf("]]", open + 2);
      if (close < 0) {
        break;
      }
      boolean embed = open > 0 && s.charAt(open - 1) == '!';
      out.append(s, from, embed ? open - 1 : open);
      String inner = s.substring(open + 2, close);
      int bar = inner.indexOf('|');
      if (!embed) {
        String shown = bar >= 0 ? inner.substring(bar + 1) : inner.replace('#', ' ');
        out.append(shown);
        addLink(links, shown);
      }
      from = close + 2;
      open = s.indexOf("[[", from);
    }
    return out.append(s.substring(from)).toString();
  }

  /** Whitespace runs as one space, trimmed. */
  static String strip(String s) {
    var out = new StringBuilder(s.length());
    boolean space = false;
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (Character.isWhitespace(ch) || ch == '\u00A0') {
        space = !out.isEmpty();
      } else {
        if (space) {
          out.append(' ');
          space = false;
        }
        out.append(ch);
      }
    }
    return out.toString();
  }
}
