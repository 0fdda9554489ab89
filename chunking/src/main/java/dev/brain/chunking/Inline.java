package dev.brain.chunking;

import java.util.ArrayList;
import java.util.List;
import org.commonmark.node.Code;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.Text;

/**
 * The inline content of a Markdown node as a reader sees it, twice: as plain text (what words are
 * matched against) and as Markdown with inline code kept verbatim in backticks (what an answer
 * shows). Emphasis markers, HTML and images show nothing; links and wikilinks show their visible
 * text ({@code [[Note|shown]]} → shown, {@code [[Note#Part]]} → Note Part, {@code ![[embed]]} →
 * nothing), and those texts are collected, so a line that is little more than links can be told.
 * Wikilink syntax inside inline code is code, never read as a link.
 *
 * @param text plain text; soft and hard line breaks kept as {@code \n}
 * @param markdown the same with inline code in backticks
 * @param links the visible text of every link and wikilink, in order
 * @param targets what each of {@code links} points to, in the same order: a wikilink's note
 *     (without its heading), a Markdown link's destination
 */
record Inline(String text, String markdown, List<String> links, List<String> targets) {

  Inline {
    links = List.copyOf(links);
    targets = List.copyOf(targets);
  }

  /** The inline content of {@code node}'s children. */
  static Inline of(Node node) {
    var out = new Builder();
    out.children(node);
    out.flush();
    return new Inline(out.text.toString(), out.markdown.toString(), out.links, out.targets);
  }

  private static final class Builder {
    final StringBuilder text = new StringBuilder();
    final StringBuilder markdown = new StringBuilder();
    final List<String> links = new ArrayList<>();
    final List<String> targets = new ArrayList<>();

    /** Adjacent text literals, joined before wikilinks are read (a parser may split them). */
    final StringBuilder pending = new StringBuilder();

    void children(Node node) {
      for (Node c = node.getFirstChild(); c != null; c = c.getNext()) {
        switch (c) {
          case Text t -> pending.append(t.getLiteral());
          case Code code -> {
            flush();
            text.append(code.getLiteral());
            markdown.append(codeSpan(code.getLiteral()));
          }
          case SoftLineBreak ignored -> literal("\n");
          case HardLineBreak ignored -> literal("\n");
          case Image ignored -> flush();
          case HtmlInline ignored -> flush();
          case Link link -> {
            flush();
            int start = text.length();
            children(link);
            flush();
            addLink(text.substring(start), link.getDestination());
          }
          default -> children(c);
        }
      }
    }

    private void literal(String s) {
      flush();
      text.append(s);
      markdown.append(s);
    }

    /** Writes the pending text literals with their wikilinks shown as visible text. */
    void flush() {
      if (pending.isEmpty()) {
        return;
      }
      String shown = wikilinksShown(pending.toString());
      text.append(shown);
      markdown.append(shown);
      pending.setLength(0);
    }

    private void addLink(String shown, String target) {
      String t = MarkdownText.strip(shown);
      if (!t.isEmpty()) {
        links.add(t);
        targets.add(target == null ? "" : target.strip());
      }
    }

    private String wikilinksShown(String s) {
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
          String note = bar >= 0 ? inner.substring(0, bar) : inner;
          out.append(shown);
          addLink(shown, note.contains("#") ? note.substring(0, note.indexOf('#')) : note);
        }
        from = close + 2;
        open = s.indexOf("[[", from);
      }
      return out.append(s.substring(from)).toString();
    }
  }

  /** {@code literal} as an inline code span, with a fence longer than any backtick run inside. */
  static String codeSpan(String literal) {
    int longest = 0;
    int run = 0;
    for (int i = 0; i < literal.length(); i++) {
      run = literal.charAt(i) == '`' ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    String fence = "`".repeat(longest + 1);
    String pad = longest > 0 || literal.startsWith("`") || literal.endsWith("`") ? " " : "";
    return fence + pad + literal + pad + fence;
  }
}
