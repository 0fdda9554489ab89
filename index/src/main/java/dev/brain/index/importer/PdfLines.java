package dev.brain.index.importer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;

/**
 * A PDF's text layer as PDFBox lays it out (lines, paragraphs, pages), with the font size of each
 * line, written as plain text whose headings are {@code #} lines: the body text is the size most of
 * the characters are set in, and a paragraph set at least {@value #HEADING_RATIO} times larger is a
 * heading, its level by its size among the headings' sizes. A document's title opening its text as
 * a heading is the top heading, every other one under it: a manual's sections are parts of the
 * manual even when its title is set no larger than they are. Without larger lines the text is the
 * paragraphs alone, as before.
 */
final class PdfLines extends PDFTextStripper {

  /** How much larger than the body text a heading is set, at least. */
  static final float HEADING_RATIO = 1.15f;

  /** Longest heading, in characters: a larger paragraph is a pull quote or a display text. */
  static final int MAX_HEADING = 160;

  private record Line(String text, float size, boolean opensParagraph) {}

  private final List<Line> lines = new ArrayList<>();
  private final StringBuilder line = new StringBuilder();
  private final Map<Float, Integer> sizes = new LinkedHashMap<>(); // of the line's characters
  private boolean paragraph = true;

  @Override
  protected void writeString(String text, List<TextPosition> positions) {
    line.append(text);
    for (TextPosition p : positions) {
      sizes.merge(Math.round(p.getFontSizeInPt() * 2) / 2f, 1, Integer::sum);
    }
  }

  @Override
  protected void writeWordSeparator() {
    line.append(' ');
  }

  @Override
  protected void writeLineSeparator() {
    endLine();
  }

  @Override
  protected void writeParagraphStart() {
    endLine();
    paragraph = true;
  }

  @Override
  protected void writeParagraphEnd() {
    endLine();
    paragraph = true;
  }

  @Override
  protected void writePageEnd() {
    endLine();
    paragraph = true;
  }

  /**
   * Ends the line: its size is the one most of its characters are set in (a larger symbol or drop
   * cap does not make a body line a heading).
   */
  private void endLine() {
    String text = line.toString().strip();
    if (!text.isEmpty()) {
      lines.add(new Line(text, mostCommon(sizes), paragraph));
      paragraph = false;
    }
    line.setLength(0);
    sizes.clear();
  }

  private static float mostCommon(Map<Float, Integer> counts) {
    return counts.entrySet().stream()
        .max(Map.Entry.comparingByValue())
        .map(Map.Entry::getKey)
        .orElse(0f);
  }

  /**
   * The text read by {@link #getText}: paragraphs between blank lines, headings as {@code #} lines.
   *
   * @param title the document's title from its metadata, or null
   */
  String text(String title) {
    endLine();
    List<List<Line>> paragraphs = new ArrayList<>();
    for (Line l : lines) {
      if (l.opensParagraph() || paragraphs.isEmpty()) {
        paragraphs.add(new ArrayList<>());
      }
      paragraphs.getLast().add(l);
    }
    float body = bodySize();
    var headings = new ArrayList<Boolean>();
    for (List<Line> p : paragraphs) {
      headings.add(isHeading(p, body));
    }
    int first = headings.indexOf(true);
    int titleAt = first >= 0 && sameTitle(joined(paragraphs.get(first)), title) ? first : -1;
    // Levels by size among the headings, the title apart: it is the top one whatever its size.
    var headingSizes = new TreeSet<Float>(java.util.Comparator.reverseOrder());
    for (int i = 0; i < paragraphs.size(); i++) {
      if (headings.get(i) && i != titleAt) {
        headingSizes.add(paragraphs.get(i).getFirst().size());
      }
    }
    List<Float> ranks = List.copyOf(headingSizes);
    var out = new StringBuilder();
    for (int i = 0; i < paragraphs.size(); i++) {
      List<Line> p = paragraphs.get(i);
      if (!out.isEmpty()) {
        out.append("\n\n");
      }
      if (!headings.get(i)) {
        // A body line opening with "#" (a shell comment in a listing) is escaped as Markdown
        // escapes it: only headings are marked.
        String text = String.join("\n", p.stream().map(Line::text).toList());
        out.append(text.startsWith("#") ? "\\" + text : text);
        continue;
      }
      int level =
          i == titleAt
              ? 1
              : Math.min(6, ranks.indexOf(p.getFirst().size()) + (titleAt >= 0 ? 2 : 1));
      out.append("#".repeat(level)).append(' ').append(joined(p));
    }
    return out.toString().strip();
  }

  private static String joined(List<Line> paragraph) {
    return String.join(" ", paragraph.stream().map(Line::text).toList());
  }

  /** The font size most characters are set in. */
  private float bodySize() {
    Map<Float, Integer> chars = new LinkedHashMap<>();
    lines.forEach(l -> chars.merge(l.size(), l.text().length(), Integer::sum));
    return mostCommon(chars);
  }

  /** A paragraph set in one size, larger than the body text, short enough for a heading. */
  private static boolean isHeading(List<Line> p, float body) {
    float first = p.getFirst().size();
    int length = p.stream().mapToInt(l -> l.text().length() + 1).sum();
    return body > 0
        && first >= body * HEADING_RATIO
        && length <= MAX_HEADING
        && p.stream().allMatch(l -> l.size() == first);
  }

  private static boolean sameTitle(String heading, String title) {
    return title != null && norm(heading).equals(norm(title));
  }

  private static String norm(String s) {
    return s.replaceAll("\\s+", " ").strip().toLowerCase(Locale.ROOT);
  }
}
