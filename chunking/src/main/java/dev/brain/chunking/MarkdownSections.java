package dev.brain.chunking;

import dev.brain.chunking.Piece.Kind;
import java.util.ArrayList;
import java.util.List;
import org.commonmark.node.Block;
import org.commonmark.node.BlockQuote;
import org.commonmark.node.Code;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.ListBlock;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.SourceSpan;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/**
 * Splits Markdown into heading sections of top-level blocks with commonmark-java, which knows where
 * blocks start and end (so {@code #} lines inside code fences, indented code, block quotes and list
 * items are not headings). ATX and setext headings both open sections. A leading YAML front matter
 * block is kept as text of the first section, never parsed as Markdown.
 */
final class MarkdownSections {

  /** Thread-safe: commonmark uses fresh state for every parse. */
  private static final Parser PARSER =
      MarkdownNesting.parser().includeSourceSpans(IncludeSourceSpans.BLOCKS).build();

  private MarkdownSections() {}

  static List<Section> of(String text) {
    int bodyStart = frontMatterEnd(text);
    List<Section> sections = new ArrayList<>();
    List<HeadingLevel> open = new ArrayList<>();
    List<Piece> blocks = new ArrayList<>();
    boolean headingOnly = false;
    Piece frontMatter = TextPieces.trimmed(text, 0, bodyStart, Kind.VERBATIM);
    if (frontMatter != null) {
      blocks.add(frontMatter);
    }
    Node document = PARSER.parse(text.substring(bodyStart));
    List<Node> children = blockChildren(document);
    List<Piece> pieces = partition(text, bodyStart, bodyStart, text.length(), children);
    for (int i = 0; i < children.size(); i++) {
      Piece piece = pieces.get(i);
      if (piece == null) {
        continue;
      }
      if (children.get(i) instanceof Heading heading) {
        addSection(sections, open, blocks, headingOnly);
        blocks = new ArrayList<>();
        open.removeIf(h -> h.level >= heading.getLevel());
        open.add(new HeadingLevel(heading.getLevel(), headingText(heading)));
        headingOnly = true;
      } else {
        headingOnly = false;
      }
      blocks.add(piece);
    }
    addSection(sections, open, blocks, headingOnly);
    return sections;
  }

  private record HeadingLevel(int level, String text) {}

  private static void addSection(
      List<Section> sections, List<HeadingLevel> open, List<Piece> blocks, boolean headingOnly) {
    if (!blocks.isEmpty()) {
      List<String> path = open.stream().map(HeadingLevel::text).toList();
      sections.add(new Section(path, blocks, headingOnly));
    }
  }

  /**
   * Pieces for {@code nodes}, partitioning {@code [start, end)}: each node's piece runs from the
   * start of the line it begins on (so list and quote markers belong to it) to where the next one
   * begins, trimmed. {@code null} where a node's range is blank.
   */
  private static List<Piece> partition(
      String text, int offset, int start, int end, List<Node> nodes) {
    int[] bounds = new int[nodes.size() + 1];
    bounds[0] = start;
    bounds[nodes.size()] = end;
    for (int i = 1; i < nodes.size(); i++) {
      int nodeStart = startOf(nodes.get(i), offset, bounds[i - 1]);
      bounds[i] = Math.min(end, Math.max(bounds[i - 1], TextPieces.lineStart(text, nodeStart)));
    }
    List<Piece> pieces = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      pieces.add(piece(text, offset, bounds[i], bounds[i + 1], nodes.get(i)));
    }
    return pieces;
  }

  private static Piece piece(String text, int offset, int start, int end, Node node) {
    Kind kind = kindOf(node);
    List<Node> children = kind == Kind.CONTAINER ? blockChildren(node) : List.of();
    if (kind == Kind.CONTAINER && children.isEmpty()) {
      kind = Kind.PROSE;
    }
    Piece range = TextPieces.trimmed(text, start, end, kind);
    if (range == null || kind != Kind.CONTAINER) {
      return range;
    }
    List<Piece> parts =
        partition(text, offset, range.start(), range.end(), children).stream()
            .filter(p -> p != null)
            .toList();
    return new Piece(range.start(), range.end(), Kind.CONTAINER, parts);
  }

  private static Kind kindOf(Node node) {
    if (node instanceof ListBlock || node instanceof ListItem || node instanceof BlockQuote) {
      return Kind.CONTAINER;
    }
    if (node instanceof FencedCodeBlock
        || node instanceof IndentedCodeBlock
        || node instanceof HtmlBlock) {
      return Kind.VERBATIM;
    }
    return Kind.PROSE;
  }

  private static int startOf(Node node, int offset, int fallback) {
    List<SourceSpan> spans = node.getSourceSpans();
    return spans.isEmpty() ? fallback : offset + spans.getFirst().getInputIndex();
  }

  private static List<Node> blockChildren(Node parent) {
    List<Node> out = new ArrayList<>();
    for (Node child = parent.getFirstChild(); child != null; child = child.getNext()) {
      if (child instanceof Block) {
        out.add(child);
      }
    }
    return out;
  }

  /**
   * The heading's visible text: literal text and code spans, whitespace collapsed, without an
   * attribute list ({@link MarkdownText#headingAttributes}).
   */
  static String headingText(Heading heading) {
    StringBuilder out = new StringBuilder();
    appendText(heading, out);
    String text = out.toString().replaceAll("\\s+", " ").strip();
    // Only an attribute list in the heading's closing text: one in a code span is the heading's.
    int attributes =
        heading.getLastChild() instanceof Text ? MarkdownText.headingAttributes(text) : 0;
    return text.substring(0, text.length() - attributes).strip();
  }

  private static void appendText(Node node, StringBuilder out) {
    for (Node child = node.getFirstChild(); child != null; child = child.getNext()) {
      switch (child) {
        case Text text -> out.append(text.getLiteral());
        case Code code -> out.append(code.getLiteral());
        case SoftLineBreak ignored -> out.append(' ');
        case HardLineBreak ignored -> out.append(' ');
        default -> appendText(child, out);
      }
    }
  }

  /**
   * End of a leading front matter block ({@code ---} line, anything, then a {@code ---} or {@code
   * ...} line), or 0 if there is none. Importers strip front matter; this only keeps a left-over
   * one from being read as a thematic break and a setext heading.
   */
  static int frontMatterEnd(String text) {
    int start = text.startsWith("\uFEFF") ? 1 : 0;
    int lineEnd = TextPieces.lineEnd(text, start, text.length());
    if (!text.substring(start, lineEnd).strip().equals("---")) {
      return 0;
    }
    int lineStart = TextPieces.nextLineStart(text, lineEnd, text.length());
    while (lineStart < text.length()) {
      lineEnd = TextPieces.lineEnd(text, lineStart, text.length());
      String line = text.substring(lineStart, lineEnd).strip();
      if (line.equals("---") || line.equals("...")) {
        return lineEnd;
      }
      lineStart = TextPieces.nextLineStart(text, lineEnd, text.length());
    }
    return 0;
  }
}
