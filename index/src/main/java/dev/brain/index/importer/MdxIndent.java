package dev.brain.index.importer;

import dev.brain.chunking.MarkdownNesting;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.commonmark.ext.front.matter.YamlFrontMatterExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/** The indent {@link Mdx} takes off lines Markdown would read as indented code. */
final class MdxIndent {

  /** Dedent passes before lines left as indented code stay so (each pass settles one level). */
  private static final int MAX_DEDENT_PASSES = 8;

  private static final Parser PARSER =
      MarkdownNesting.parser()
          .extensions(List.of(YamlFrontMatterExtension.create()))
          .includeSourceSpans(IncludeSourceSpans.BLOCKS)
          .build();

  private MdxIndent() {}

  /**
   * MDX has no indented code blocks (only fenced ones), so its authors indent component content
   * freely; Markdown would show such lines as code. Each line commonmark reads as indented code
   * loses the indent beyond its container's, until none is left (a line that was an indented fence
   * may then open a fenced block, as in MDX).
   */
  static String withoutIndentedCode(String markdown) {
    String text = markdown;
    for (int pass = 0; pass < MAX_DEDENT_PASSES; pass++) {
      var blocks = new ArrayList<List<Integer>>();
      PARSER
          .parse(text)
          .accept(
              new AbstractVisitor() {
                @Override
                public void visit(IndentedCodeBlock block) {
                  blocks.add(block.getSourceSpans().stream().map(s -> s.getInputIndex()).toList());
                }
              });
      if (blocks.isEmpty()) {
        return text;
      }
      // Each block loses the indent its lines share, in columns (a tab to the next multiple of
      // four), so code inside it keeps its own; what is left of a line's indent becomes spaces.
      var cuts = new ArrayList<int[]>();
      for (List<Integer> starts : blocks) {
        int common = Integer.MAX_VALUE;
        for (int start : starts) {
          int end = indentEnd(text, start);
          if (end < text.length() && text.charAt(end) != '\n' && text.charAt(end) != '\r') {
            common = Math.min(common, columns(text, start, end));
          }
        }
        for (int start : starts) {
          int end = indentEnd(text, start);
          cuts.add(new int[] {start, end, Math.max(0, columns(text, start, end) - common)});
        }
      }
      cuts.sort(Comparator.comparingInt((int[] c) -> c[0]).reversed());
      var out = new StringBuilder(text);
      for (int[] cut : cuts) {
        out.replace(cut[0], cut[1], " ".repeat(cut[2]));
      }
      text = out.toString();
    }
    return text;
  }

  private static int indentEnd(String text, int from) {
    int end = from;
    while (end < text.length() && (text.charAt(end) == ' ' || text.charAt(end) == '\t')) {
      end++;
    }
    return end;
  }

  /** The width of the whitespace from {@code from} to {@code end}, tabs to multiples of four. */
  private static int columns(String text, int from, int end) {
    int width = 0;
    for (int i = from; i < end; i++) {
      width = text.charAt(i) == '\t' ? width + 4 - width % 4 : width + 1;
    }
    return width;
  }
}
