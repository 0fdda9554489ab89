package dev.brain.chunking;

import static dev.brain.chunking.MarkdownBlocks.pathOf;

import dev.brain.chunking.MarkdownBlocks.Block;
import dev.brain.chunking.MarkdownBlocks.HeadingAt;
import dev.brain.chunking.MarkdownBlocks.Kind;
import dev.brain.chunking.MarkdownBlocks.Unit;
import java.util.ArrayList;
import java.util.List;

/**
 * Plain text (a PDF's text layer, a transcript) as {@link MarkdownBlocks}: paragraphs between blank
 * lines, headings marked with {@code #} or, when none is, short lines without closing punctuation.
 */
final class PlainTextBlocks {

  /** Longest line of plain text read as a heading. */
  private static final int MAX_PLAIN_HEADING = 80;

  private PlainTextBlocks() {}

  /**
   * {@link MarkdownBlocks#ofPlainText(String)} once it is known whether {@code text} marks its
   * headings.
   */
  static List<Block> of(String text, boolean marked) {
    var out = new ArrayList<Block>();
    if (text == null || text.isBlank()) {
      return out;
    }
    var open = new ArrayList<HeadingAt>();
    var blank = BLANK_LINE.matcher(text);
    int from = 0;
    while (from < text.length()) {
      int end = blank.find(from) ? blank.start() : text.length();
      int next = end < text.length() ? blank.end() : text.length();
      String p = text.substring(from, end).strip();
      if (!p.isEmpty()) {
        int start = from + text.substring(from, end).indexOf(p.charAt(0));
        int level = marked ? markedLevel(p) : unmarkedHeading(p) ? 1 : 0;
        String shown =
            level > 0 && marked ? p.substring(level + 1) : p.startsWith("\\#") ? p.substring(1) : p;
        String line = MarkdownText.strip(shown);
        var unit = new Unit(line, line, List.of(), List.of(), 0, false);
        if (level > 0) {
          int at = level;
          open.removeIf(h -> h.level() >= at);
          out.add(
              new Block(
                  Kind.HEADING, level, pathOf(open), "", false, 0, List.of(unit), start, end));
          open.add(new HeadingAt(level, line));
        } else {
          out.add(
              new Block(Kind.PARAGRAPH, 0, pathOf(open), "", false, 0, List.of(unit), start, end));
        }
      }
      from = Math.max(next, from + 1);
    }
    return out;
  }

  /** A blank line: what separates paragraphs of plain text. */
  private static final java.util.regex.Pattern BLANK_LINE =
      java.util.regex.Pattern.compile("\\n\\s*\\n");

  /** A heading line of plain text that marks its headings: {@code #} to {@code ######}, a space. */
  private static final java.util.regex.Pattern MARKED_HEADING =
      java.util.regex.Pattern.compile(
          "(?m)(?:\\A|\\n\\s*\\n)#{1,6} \\S[^\\n]*(?:\\n\\s*\\n|\\s*\\z)");

  /**
   * Whether plain text marks its headings: a one-line paragraph opens with one to six {@code #} and
   * a space.
   */
  static boolean marksHeadings(String text) {
    return MARKED_HEADING.matcher(text).find();
  }

  /** The level of a marked heading paragraph ({@code ## 4. Descaling} is 2), or 0. */
  private static int markedLevel(String p) {
    int hashes = 0;
    while (hashes < p.length() && p.charAt(hashes) == '#') {
      hashes++;
    }
    return hashes >= 1
            && hashes <= 6
            && hashes + 1 < p.length()
            && p.charAt(hashes) == ' '
            && !Character.isWhitespace(p.charAt(hashes + 1))
            && !p.contains("\n")
        ? hashes
        : 0;
  }

  /** A short one-line paragraph without closing punctuation or a colon. */
  private static boolean unmarkedHeading(String p) {
    return !p.contains("\n")
        && !p.contains(":")
        && p.length() <= MAX_PLAIN_HEADING
        && ".!?:;,".indexOf(p.charAt(p.length() - 1)) < 0;
  }
}
