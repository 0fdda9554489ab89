package dev.brain.research.note;

import dev.brain.chunking.BrainWritten;
import dev.brain.chunking.MarkdownNesting;
import java.util.ArrayList;
import java.util.List;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Paragraph;
import org.commonmark.node.SourceSpan;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/**
 * The blocks of a note a passage may be quoted from: each paragraph (of its own, in a list item or
 * in a block quote) and each table row, as its Markdown source on one line, in note order.
 * Headings, code, HTML, front matter and the research section are no passages. A quoted excerpt
 * never crosses from one block into the next, so it never starts inside another bullet.
 */
final class NoteBlocks {
  private NoteBlocks() {}

  /** Thread-safe, depth-capped like every Markdown parser of brain. */
  private static final Parser PARSER =
      MarkdownNesting.parser().includeSourceSpans(IncludeSourceSpans.BLOCKS).build();

  /** The blocks of {@code note}'s text. */
  static List<String> of(String note) {
    String text = ResearchSection.without(note);
    String markdown = text.substring(BrainWritten.markdownStart(text));
    var out = new ArrayList<String>();
    PARSER
        .parse(markdown)
        .accept(
            new AbstractVisitor() {
              @Override
              public void visit(Paragraph paragraph) {
                var lines = new ArrayList<String>();
                for (SourceSpan s : paragraph.getSourceSpans()) {
                  int start = Math.min(s.getInputIndex(), markdown.length());
                  int end = Math.min(start + s.getLength(), markdown.length());
                  lines.add(markdown.substring(start, end).strip());
                }
                if (!lines.isEmpty() && lines.stream().allMatch(l -> l.startsWith("|"))) {
                  for (String row : lines) {
                    if (!row.matches("\\|?[\\s:|-]+\\|?")) { // the rule under a table's header
                      out.add(
                          row.replaceAll("^\\|\\s*|\\s*\\|$", "").replaceAll("\\s*\\|\\s*", " | "));
                    }
                  }
                } else if (!lines.isEmpty()) {
                  // A task list item's box is no part of what it says.
                  out.add(String.join(" ", lines).strip().replaceFirst("^\\[[ xX]]\\s+", ""));
                }
              }
            });
    out.removeIf(String::isBlank);
    return out;
  }
}
