package dev.brain.chunking;

import java.util.ArrayDeque;
import java.util.Deque;
import org.commonmark.internal.InlineParserImpl;
import org.commonmark.node.Block;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.InlineParser;
import org.commonmark.parser.InlineParserContext;
import org.commonmark.parser.Parser;
import org.commonmark.parser.PostProcessor;
import org.commonmark.parser.SourceLines;

/**
 * commonmark-java parsers whose trees nest at most {@link #MAX_DEPTH} levels, so that code which
 * walks a tree recursively (commonmark's own visitors and HTML renderer, brain's readers) cannot
 * overflow the stack on a hostile note: a list nested 10,000 levels deep ({@code - - - - … item}),
 * a block quote of 10,000 {@code >}, 20,000 {@code *} around a word. Nothing is dropped: blocks
 * deeper than the cap are lifted into the block at the cap, in document order, and inline emphasis
 * or links deeper than it keep their text without the markup. Every parser of Markdown in brain is
 * built here.
 */
public final class MarkdownNesting {

  /**
   * Deepest nesting of a parsed tree, counted in nodes from the document (a list item in a list is
   * two levels); real notes stay far below it.
   */
  public static final int MAX_DEPTH = 100;

  /**
   * Most emphasis or bracket delimiters that may enclose one point of a paragraph before it is read
   * as plain text. commonmark's inline parser recurses once per level of emphasis it builds, before
   * any post-processor sees the tree, so a paragraph that could nest deeper is never handed to it.
   */
  static final int MAX_INLINE_DELIMITERS = 1_000;

  private MarkdownNesting() {}

  /** A parser builder whose trees nest at most {@link #MAX_DEPTH} levels. */
  public static Parser.Builder parser() {
    return Parser.builder().inlineParserFactory(Guarded::new).postProcessor(new Flatten());
  }

  /**
   * The default inline parser for paragraphs that cannot nest deeply; a paragraph that could is
   * kept as its literal text (wikilinks and words still read; emphasis and Markdown links lost).
   * {@link #possibleDepth} is an upper bound, cheap to count: every level of emphasis at a point
   * has a delimiter character on each side of it, and so has every level of link or image. A real
   * paragraph would need some 500 emphasis pairs on each side of one point to reach the cap.
   */
  private static final class Guarded implements InlineParser {
    private final InlineParser parser;

    Guarded(InlineParserContext context) {
      // commonmark's own inline parser: the one a builder uses when given no factory.
      this.parser = new InlineParserImpl(context);
    }

    @Override
    public void parse(SourceLines lines, Node node) {
      String content = lines.getContent();
      if (possibleDepth(content) > MAX_INLINE_DELIMITERS) {
        node.appendChild(new Text(content));
      } else {
        parser.parse(lines, node);
      }
    }
  }

  /**
   * An upper bound of how deep the inline content of {@code text} can nest: for emphasis, the most
   * {@code *} or {@code _} on both sides of one point; for links and images, the most {@code [}
   * before and {@code ]} after one point.
   */
  static int possibleDepth(String text) {
    int emphasisAfter = 0;
    int closersAfter = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '*' || c == '_') {
        emphasisAfter++;
      } else if (c == ']') {
        closersAfter++;
      }
    }
    int emphasisBefore = 0;
    int openersBefore = 0;
    int emphasis = 0;
    int links = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '*' || c == '_') {
        emphasisAfter--;
        emphasis = Math.max(emphasis, Math.min(emphasisBefore, emphasisAfter));
        emphasisBefore++;
      } else if (c == '[') {
        openersBefore++;
      } else if (c == ']') {
        links = Math.max(links, Math.min(openersBefore, closersAfter));
        closersAfter--;
      }
    }
    return emphasis + links;
  }

  /**
   * Lifts the children of every node deeper than {@link #MAX_DEPTH} that holds other nodes of its
   * own sort (a block holding blocks, an inline holding inlines) into its place, walking the tree
   * without recursion. A paragraph or heading keeps its inline text.
   */
  private static final class Flatten implements PostProcessor {
    @Override
    public Node process(Node document) {
      Deque<Node> nodes = new ArrayDeque<>();
      Deque<Integer> depths = new ArrayDeque<>();
      nodes.push(document);
      depths.push(0);
      while (!nodes.isEmpty()) {
        Node node = nodes.pop();
        int depth = depths.pop();
        boolean lift = depth > MAX_DEPTH && holdsItsOwnSort(node);
        int childDepth = lift ? depth : depth + 1;
        Node child = node.getFirstChild();
        while (child != null) {
          Node next = child.getNext();
          if (lift) {
            node.insertBefore(child);
          }
          nodes.push(child);
          depths.push(childDepth);
          child = next;
        }
        if (lift) {
          node.unlink();
        }
      }
      return document;
    }

    private static boolean holdsItsOwnSort(Node node) {
      Node first = node.getFirstChild();
      return first != null && (node instanceof Block == first instanceof Block);
    }
  }
}
