package dev.brain.chunking;

import static org.assertj.core.api.Assertions.assertThat;

import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Node;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;

/** Hostile nesting is flattened at parse time, so recursive walks of the tree stay shallow. */
class MarkdownNestingTest {

  private static final Parser PARSER = MarkdownNesting.parser().build();

  @Test
  void aListNestedTenThousandLevelsParsesShallowAndKeepsItsText() {
    assertShallowWithText("- ".repeat(10_000) + "zebrafinch\n", "zebrafinch");
  }

  @Test
  void aBlockQuoteNestedTenThousandLevelsParsesShallowAndKeepsItsText() {
    assertShallowWithText(">".repeat(10_000) + " quokka\n", "quokka");
  }

  @Test
  void twentyThousandStarsAroundAWordParseShallowAndKeepTheWord() {
    assertShallowWithText("*".repeat(20_000) + "starling" + "*".repeat(20_000) + "\n", "starling");
  }

  @Test
  void twentyThousandOpeningBracketsParseShallowAndKeepTheWord() {
    assertShallowWithText("[".repeat(20_000) + "bracket" + "]".repeat(20_000) + "\n", "bracket");
  }

  @Test
  void ordinaryEmphasisAndListsAreParsedAsUsual() {
    String many = "**bold** word ".repeat(100);
    Node document = PARSER.parse("- a\n  - b\n    - c\n\n" + many + "\n");
    var strong = new int[1];
    document.accept(
        new AbstractVisitor() {
          @Override
          public void visit(StrongEmphasis node) {
            strong[0]++;
            visitChildren(node);
          }
        });
    assertThat(strong[0]).isEqualTo(100);
    assertThat(depth(document)).isEqualTo(8); // three lists of one item, a paragraph, its text
  }

  @Test
  void chunkingAndBlocksOfADeeplyNestedNoteKeepItsText() {
    String note =
        "# Deep\n\n" + "- ".repeat(10_000) + "zebrafinch\n\n" + ">".repeat(10_000) + " quokka\n";
    var chunks = new Chunker(s -> s.length() / 4 + 1).chunk("k", note, ChunkRole.RAW, true);
    assertThat(String.join(" ", chunks.stream().map(Chunk::text).toList()))
        .contains("zebrafinch", "quokka");
    assertThat(MarkdownBlocks.of(note).stream().map(MarkdownBlocks.Block::text))
        .anySatisfy(t -> assertThat(t).contains("zebrafinch"))
        .anySatisfy(t -> assertThat(t).contains("quokka"));
  }

  private static void assertShallowWithText(String markdown, String word) {
    Node document = PARSER.parse(markdown);
    assertThat(depth(document)).isLessThanOrEqualTo(MarkdownNesting.MAX_DEPTH + 2);
    var text = new StringBuilder();
    // A recursive visitor, as renderers and readers use: it must not overflow the stack.
    document.accept(
        new AbstractVisitor() {
          @Override
          public void visit(Text node) {
            text.append(node.getLiteral());
          }
        });
    assertThat(text.toString()).contains(word);
  }

  /** Depth of the tree, counted without recursion. */
  private static int depth(Node root) {
    int deepest = 0;
    var nodes = new java.util.ArrayDeque<Node>();
    var depths = new java.util.ArrayDeque<Integer>();
    nodes.push(root);
    depths.push(0);
    while (!nodes.isEmpty()) {
      Node node = nodes.pop();
      int d = depths.pop();
      deepest = Math.max(deepest, d);
      for (Node c = node.getFirstChild(); c != null; c = c.getNext()) {
        nodes.push(c);
        depths.push(d + 1);
      }
    }
    return deepest;
  }
}
