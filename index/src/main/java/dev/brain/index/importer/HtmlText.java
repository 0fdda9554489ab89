package dev.brain.index.importer;

import java.util.Set;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/**
 * Readable text from HTML that keeps its block structure, written as the Markdown a saved page is
 * read as: paragraphs become paragraphs, headings {@code #} lines of their level (so chunks and
 * answers know the section they are in), list items and table rows lines, {@code pre} a fenced code
 * block with its lines as written, inline {@code code} a code span. jsoup's own {@code text()}
 * flattens a page into one line, which would defeat paragraph-aware chunking.
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

  private static final Pattern CODE_CLASS =
      Pattern.compile("(?i)\\b(?:lang(?:uage)?-[\\w+#-]+|highlight\\w*|sourceCode|code)\\b");

  private static final Pattern LANGUAGE_CLASS = Pattern.compile("(?i)\\blang(?:uage)?-([\\w+#-]+)");

  private static final Set<String> HEADINGS = Set.of("h1", "h2", "h3", "h4", "h5", "h6");

  private static final Set<String> LINES =
      Set.of("br", "li", "tr", "dt", "dd", "div", "figcaption", "summary", "caption");

  /** What carries no readable content and is dropped before extraction. */
  static final String NOISE =
      "script, style, noscript, template, svg, canvas, iframe, object, embed, button, select,"
          + " input, textarea, form";

  private static final Pattern SPACES = Pattern.compile("[ \\t\\x0B\\f\\r\\u00A0]+");
  private static final Pattern BLANK_LINES = Pattern.compile("\\n{3,}");

  private HtmlText() {}

  /** Marks the lines of a {@code pre} element, which are kept as written. */
  private static final char VERBATIM = '\u0000';

  /** The text of an element (the element is not modified). */
  static String of(Element root) {
    var out = new StringBuilder();
    NodeTraversor.traverse(new Visitor(out), root);
    var lines = new StringBuilder();
    for (String line : out.toString().split("\n", -1)) {
      if (!line.isEmpty() && line.charAt(0) == VERBATIM) {
        lines.append(line.substring(1).stripTrailing()).append('\n');
      } else {
        lines.append(SPACES.matcher(line).replaceAll(" ").strip()).append('\n');
      }
    }
    return BLANK_LINES.matcher(lines.toString()).replaceAll("\n\n").strip();
  }

  /** A fence for {@code text}: one more of {@code c} than its longest run, at least {@code min}. */
  private static String fence(String text, char c, int min) {
    int longest = 0;
    int run = 0;
    for (int i = 0; i < text.length(); i++) {
      run = text.charAt(i) == c ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    return String.valueOf(c).repeat(Math.max(min, longest + 1));
  }

  /** Writes the text while it walks the tree; keeps which {@code pre} it is inside. */
  private static final class Visitor implements NodeVisitor {
    private final StringBuilder out;

    /** The outermost {@code pre} being walked, or null. */
    private Element pre;

    /** Its fence when it holds code (its lines kept as written), else null. */
    private String codeFence;

    Visitor(StringBuilder out) {
      this.out = out;
    }

    @Override
    public void head(Node node, int depth) {
      if (node instanceof TextNode text) {
        if (codeFence != null) {
          // Each line of code is marked to be kept as written (indentation matters in code).
          out.append(text.getWholeText().replace("\r", "").replace("\n", "\n" + VERBATIM));
        } else {
          out.append(pre != null ? text.getWholeText() : text.text());
        }
        return;
      }
      if (!(node instanceof Element el)) {
        return;
      }
      String tag = el.normalName();
      if (codeFence != null) {
        // Markup inside code (a highlighter's line elements) only breaks lines.
        if (tag.equals("br") || PARAGRAPHS.contains(tag) || LINES.contains(tag)) {
          codeLine();
        }
        return;
      }
      if (tag.equals("pre") && pre == null) {
        pre = el;
        if (isCode(el)) {
          codeFence = fence(el.wholeText(), '`', 3);
          breakLines(2);
          out.append(codeFence).append(language(el)).append('\n').append(VERBATIM);
          return;
        }
      }
      if (HEADINGS.contains(tag) && !el.text().isBlank()) {
        breakLines(2);
        out.append("#".repeat(tag.charAt(1) - '0')).append(' ');
      } else if (PARAGRAPHS.contains(tag) || HEADINGS.contains(tag)) {
        breakLines(2);
      } else if (isCodeSpan(el)) {
        String code = el.text();
        out.append(fence(code, '`', 1)).append(code.startsWith("`") ? " " : "");
      } else if (tag.equals("br") && inHeading(el)) {
        out.append(' ');
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

    @Override
    public void tail(Node node, int depth) {
      if (!(node instanceof Element el)) {
        return;
      }
      String tag = el.normalName();
      if (el == pre) {
        pre = null;
        if (codeFence != null) {
          int end = out.length();
          while (end > 0 && " \t\n".indexOf(out.charAt(end - 1)) >= 0
              || end > 0 && out.charAt(end - 1) == VERBATIM) {
            end--;
          }
          out.setLength(end);
          out.append('\n').append(codeFence);
          codeFence = null;
          breakLines(2);
          return;
        }
      }
      if (codeFence != null) {
        if (PARAGRAPHS.contains(tag) || LINES.contains(tag) && !tag.equals("br")) {
          codeLine();
        }
      } else if (isCodeSpan(el)) {
        String code = el.text();
        out.append(code.endsWith("`") ? " " : "").append(fence(code, '`', 1));
      } else if (PARAGRAPHS.contains(tag) || HEADINGS.contains(tag)) {
        breakLines(2);
      } else if (LINES.contains(tag) && !tag.equals("br")) {
        breakLines(1);
      }
    }

    /** Starts a new line of code unless one was just started. */
    private void codeLine() {
      int end = out.length();
      if (end > 0 && out.charAt(end - 1) != VERBATIM) {
        out.append('\n').append(VERBATIM);
      }
    }

    /** Inline code with something in it, outside any {@code pre}: a code span. */
    private boolean isCodeSpan(Element el) {
      return el.normalName().equals("code")
          && pre == null
          && el.selectFirst("pre") == null
          && !el.text().isEmpty();
    }

    /** Whether {@code el} sits in a heading, which stays on one line. */
    private static boolean inHeading(Element el) {
      for (Element p = el.parent(); p != null; p = p.parent()) {
        if (HEADINGS.contains(p.normalName())) {
          return true;
        }
      }
      return false;
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

    /**
     * Whether a {@code pre} holds code (a {@code code} element, or a highlighter's or language
     * class) rather than preformatted prose such as a mailing-list post, which stays quotable text.
     */
    private static boolean isCode(Element pre) {
      return pre.selectFirst("code") != null || CODE_CLASS.matcher(pre.className()).find();
    }

    /** The language a code block names by its class ({@code language-rust}), or empty. */
    private static String language(Element pre) {
      Element code = pre.selectFirst("code");
      for (Element e : code == null ? java.util.List.of(pre) : java.util.List.of(code, pre)) {
        var m = LANGUAGE_CLASS.matcher(e.className());
        if (m.find()) {
          return m.group(1);
        }
      }
      return "";
    }
  }
}
