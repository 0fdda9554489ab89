package dev.brain.chunking;

import static dev.brain.chunking.MarkdownBlocks.PARSER;
import static dev.brain.chunking.MarkdownBlocks.add;
import static dev.brain.chunking.MarkdownBlocks.unit;

import dev.brain.chunking.MarkdownBlocks.Block;
import dev.brain.chunking.MarkdownBlocks.Kind;
import dev.brain.chunking.MarkdownBlocks.Unit;
import java.util.List;
import org.commonmark.node.Node;
import org.commonmark.node.Paragraph;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;

/**
 * What a top-level HTML block of Markdown shows in {@link MarkdownBlocks}, as a browser shows it:
 * its captions when it has any (a listing's or figure's wrapper), else its preformatted text as
 * code, else its text by its elements (definition terms with their descriptions, list items, table
 * rows, paragraphs).
 */
final class HtmlBlocks {

  private HtmlBlocks() {}

  /**
   * The captions of an HTML block as one paragraph, or null when it has none: a figure's or a
   * listing's caption is what a reader sees of it, and often the one place that names what the code
   * (or image) shows. A caption is read as the author's inline Markdown (authors write {@code
   * `Box`} in captions too), as written when it does not parse as one paragraph or its text holds a
   * {@code <} the HTML escaped; an element with a {@code caption} and a {@code number} attribute is
   * named by its tag and number, as a rendered book labels it. A block without the word "caption"
   * shows its {@code <pre>} text (unless it sits in an item, a cell or a paragraph) or its text
   * ({@link #text}).
   */
  static Block block(String html, List<String> path, int start, int end) {
    String lower = html.toLowerCase(java.util.Locale.ROOT);
    if (lower.contains("<pre") && !preInTextBlock(html)) {
      Block code = preformatted(html, path, start, end);
      if (code != null) {
        return code;
      }
    }
    if (!lower.contains("caption")) {
      return text(html, path, start, end);
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
    return new Block(Kind.PARAGRAPH, 0, path, "", false, 0, List.of(joined(units)), start, end);
  }

  /** Elements whose text a browser shows as a block of its own. */
  private static final String TEXT_BLOCKS = "dt, dd, li, tr, p, h1, h2, h3, h4, h5, h6, summary";

  /**
   * The text of an HTML block by its outermost text elements, or null when it shows none (an
   * anchor, an image, a comment, an opening {@code <div>}): a run of {@code <dt>} terms with the
   * {@code <dd>} after them as one item ("{@code --workspace}: Build all members in the
   * workspace."), each {@code <li>} an item, each table row a statement like a Markdown table's
   * ({@link MarkdownTables#statement}), each paragraph or heading a paragraph; text outside them
   * one paragraph; a {@code <pre>} inside an item follows its text as a code unit. Cargo's command
   * pages write every option so.
   */
  private static Block text(String html, List<String> path, int start, int end) {
    Element body = Jsoup.parseBodyFragment(html).body();
    if (body.text().isBlank()) {
      return null;
    }
    var units = new java.util.LinkedHashSet<Unit>();
    var terms = new java.util.ArrayList<String>();
    List<String> header = List.of();
    boolean items = false;
    boolean rows = false;
    for (Element e : body.select(TEXT_BLOCKS)) {
      if (hasTextBlockAncestor(e, body)) {
        continue;
      }
      switch (e.tagName()) {
        case "dt" -> terms.add(e.text().strip());
        case "dd" -> {
          String term = String.join(", ", terms);
          terms.clear();
          items = true;
          addWithCode(units, term.isEmpty() ? "" : term + ": ", e);
        }
        case "li" -> {
          items = true;
          addWithCode(units, "", e);
        }
        case "tr" -> {
          List<String> cells = e.select("> th, > td").eachText();
          if (!e.select("> th").isEmpty() && e.select("> td").isEmpty()) {
            header = cells;
          } else {
            rows = true;
            add(units, plain(MarkdownTables.statement(header, cells)));
          }
        }
        default -> addWithCode(units, "", e);
      }
    }
    terms.forEach(t -> add(units, plain(t)));
    if (units.isEmpty()) {
      add(units, plain(body.text()));
    }
    if (units.isEmpty()) {
      return null;
    }
    Kind kind = rows ? Kind.TABLE : items ? Kind.LIST : Kind.PARAGRAPH;
    if (kind == Kind.PARAGRAPH && units.size() > 1) {
      // Paragraphs of one HTML block read as one, as a wrapper's text does.
      return new Block(kind, 0, path, "", false, 0, List.of(joined(units)), start, end);
    }
    return new Block(kind, 0, path, "", false, 0, List.copyOf(units), start, end);
  }

  /** Whether a {@code <pre>} of the block sits in a text element: a list item's or cell's code. */
  private static boolean preInTextBlock(String html) {
    Element body = Jsoup.parseBodyFragment(html).body();
    return body.select("pre").stream().anyMatch(pre -> hasTextBlockAncestor(pre, body));
  }

  /**
   * A text element's text before its code: the text of {@code e} without its {@code <pre>}
   * elements, which follow it as code units (an option's description, then its example).
   */
  private static void addWithCode(java.util.Collection<Unit> units, String label, Element e) {
    if (e.select("pre").isEmpty()) {
      add(units, plain(label + e.text()));
      return;
    }
    Element text = e.clone();
    text.select("pre").remove();
    add(units, plain(label + text.text()));
    for (Element pre : e.select("pre")) {
      String code = pre.wholeText().strip();
      if (!code.isEmpty()) {
        units.add(MarkdownBlocks.code(code, language(pre)));
      }
    }
  }

  private static boolean hasTextBlockAncestor(Element e, Element body) {
    for (Element p = e.parent(); p != null && p != body; p = p.parent()) {
      if (p.is(TEXT_BLOCKS)) {
        return true;
      }
    }
    return false;
  }

  /** A text unit of element text (decoded: "Vec&lt;T&gt;" reads Vec<T>), or null when blank. */
  private static Unit plain(String text) {
    String t = text == null ? "" : text.strip();
    return t.isEmpty() ? null : new Unit(t, t, List.of(), List.of(), 0, false);
  }

  private static Unit joined(java.util.Collection<Unit> units) {
    return new Unit(
        String.join(" ", units.stream().map(Unit::text).toList()),
        String.join(" ", units.stream().map(Unit::markdown).toList()),
        units.stream().flatMap(u -> u.links().stream()).toList(),
        units.stream().flatMap(u -> u.targets().stream()).toList(),
        0,
        false);
  }

  /**
   * The {@code <pre>} elements of an HTML block as one code block, or null when they hold no text:
   * docs write their commands as HTML ({@code <pre><code class="cmd"><span class="bash">sudo apt
   * install …</span>}) and a browser shows them as code. Their text is read as the parser decoded
   * it, line breaks kept; the language is a {@code language-…} class of the first {@code <code>}
   * inside.
   */
  private static Block preformatted(String html, List<String> path, int start, int end) {
    var lines = new java.util.ArrayList<String>();
    String language = "";
    for (Element pre : Jsoup.parseBodyFragment(html).body().select("pre")) {
      String text = pre.wholeText().strip();
      if (!text.isEmpty()) {
        lines.add(text);
      }
      if (language.isEmpty()) {
        language = language(pre);
      }
    }
    if (lines.isEmpty()) {
      return null;
    }
    return new Block(
        Kind.CODE,
        0,
        path,
        "",
        false,
        0,
        List.of(MarkdownBlocks.code(String.join("\n", lines), language)),
        start,
        end);
  }

  /** The language of a {@code <pre>}: a {@code language-…} class of a {@code <code>} inside. */
  private static String language(Element pre) {
    for (String cls : pre.select("code").eachAttr("class")) {
      for (String name : cls.split("\\s+")) {
        if (name.startsWith("language-")) {
          return name.substring("language-".length());
        }
      }
    }
    return "";
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
}
