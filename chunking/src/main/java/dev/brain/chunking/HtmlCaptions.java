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
 * What a top-level HTML block of Markdown shows in {@link MarkdownBlocks}: its preformatted text,
 * else its captions.
 */
final class HtmlCaptions {

  private HtmlCaptions() {}

  /**
   * The captions of an HTML block as one paragraph, or null when it has none: a figure's or a
   * listing's caption is what a reader sees of it, and often the one place that names what the code
   * (or image) shows. A caption is read as the author's inline Markdown (authors write {@code
   * `Box`} in captions too), as written when it does not parse as one paragraph or its text holds a
   * {@code <} the HTML escaped; an element with a {@code caption} and a {@code number} attribute is
   * named by its tag and number, as a rendered book labels it. A block without the word "caption"
   * is not parsed at all (comments, {@code <div>}, {@code <img>}).
   */
  static Block block(String html, List<String> path, int start, int end) {
    String lower = html.toLowerCase(java.util.Locale.ROOT);
    if (lower.contains("<pre")) {
      Block code = preformatted(html, path, start, end);
      if (code != null) {
        return code;
      }
    }
    if (!lower.contains("caption")) {
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
      for (String cls : pre.select("code").eachAttr("class")) {
        for (String name : cls.split("\\s+")) {
          if (language.isEmpty() && name.startsWith("language-")) {
            language = name.substring("language-".length());
          }
        }
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
