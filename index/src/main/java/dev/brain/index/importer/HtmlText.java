package dev.brain.index.importer;

import java.util.Set;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/**
 * Readable text from HTML that keeps its block structure: paragraphs and headings become
 * paragraphs, list items and table rows become lines, {@code pre} keeps its line breaks. jsoup's
 * own {@code text()} flattens a page into one line, which would defeat paragraph-aware chunking.
 */
final class HtmlText {

  private static final Set<String> PARAGRAPHS =
      Set.of(
          "p",
          "h1",
          "h2",
          "h3",
          "h4",
          "h5",
          "h6",
          "blockquote",
          "pre",
          "table",
          "ul",
          "ol",
          "dl",
          "figure",
          "section",
          "article",
          "main",
          "header",
          "footer",
          "hr",
          "address",
          "details");

  private static final Set<String> LINES =
      Set.of("br", "li", "tr", "dt", "dd", "div", "figcaption", "summary", "caption");

  /** What carries no readable content and is dropped before extraction. */
  static final String NOISE =
      "script, style, noscript, template, svg, canvas, iframe, object, embed, button, select,"
          + " input, textarea, form";

  private static final Pattern SPACES = Pattern.compile("[ \\t\\x0B\\f\\r\\u00A0]+");
  private static final Pattern BLANK_LINES = Pattern.compile("\\n{3,}");

  private HtmlText() {}

  /** The text of an element (the element is not modified). */
  static String of(Element root) {
    var out = new StringBuilder();
    NodeTraversor.traverse(new Visitor(out), root);
    var lines = new StringBuilder();
    for (String line : out.toString().split("\n", -1)) {
      lines.append(SPACES.matcher(line).replaceAll(" ").strip()).append('\n');
    }
    return BLANK_LINES.matcher(lines.toString()).replaceAll("\n\n").strip();
  }

  private record Visitor(StringBuilder out) implements NodeVisitor {
    @Override
    public void head(Node node, int depth) {
      if (node instanceof TextNode text) {
        out.append(inPre(text) ? text.getWholeText() : text.text());
      } else if (node instanceof Element el) {
        String tag = el.normalName();
        if (PARAGRAPHS.contains(tag)) {
          breakLines(2);
        } else if (LINES.contains(tag)) {
          breakLines(1);
          if (tag.equals("li")) {
            out.append("- ");
          }
        } else if (tag.equals("td") || tag.equals("th")) {
          out.append(' ');
        } else if (tag.equals("img") && !el.attr("alt").isBlank()) {
          out.append(' ').append(el.attr("alt")).append(' ');
        }
      }
    }

    @Override
    public void tail(Node node, int depth) {
      if (node instanceof Element el) {
        String tag = el.normalName();
        if (PARAGRAPHS.contains(tag)) {
          breakLines(2);
        } else if (LINES.contains(tag) && !tag.equals("br")) {
          breakLines(1);
        }
      }
    }

    /** Ends the output with at least {@code count} line breaks (none at the very start). */
    private void breakLines(int count) {
      int end = out.length();
      while (end > 0 && (out.charAt(end - 1) == ' ' || out.charAt(end - 1) == '\t')) {
        end--;
      }
      out.setLength(end);
      int have = 0;
      while (have < end && out.charAt(end - 1 - have) == '\n') {
        have++;
      }
      if (end > 0) {
        out.append("\n".repeat(Math.max(0, count - have)));
      }
    }

    private static boolean inPre(TextNode text) {
      for (Element p = text.parent() instanceof Element e ? e : null; p != null; p = p.parent()) {
        if (p.normalName().equals("pre")) {
          return true;
        }
      }
      return false;
    }
  }
}
