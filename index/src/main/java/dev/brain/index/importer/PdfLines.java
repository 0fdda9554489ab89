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
  private float size;
  private boolean paragraph = true;

  @Override
  protected void writeString(String text, List<TextPosition> positions) {
    line.append(text);
    for (TextPosition p : positions) {
      size = Math.max(size, p.getFontSizeInPt());
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

  private void endLine() {
    String text = line.toString().strip();
    if (!text.isEmpty()) {
      lines.add(new Line(text, Math.round(size * 2) / 2f, paragraph));
      paragraph = false;
    }
    line.setLength(0);
    size = 0;
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
    var headingSizes = new TreeSet<Float>(java.util.Comparator.reverseOrder());
    var headings = new ArrayList<Boolean>();
    for (List<Line> p : paragraphs) {
      boolean heading = isHeading(p, body);
      headings.add(heading);
      if (heading) {
        headingSizes.add(p.getFirst().size());
      }
    }
    List<Float> ranks = List.copyOf(headingSizes);
    boolean titled = false;
    var out = new StringBuilder();
    for (int i = 0; i < paragraphs.size(); i++) {
      List<Line> p = paragraphs.get(i);
      if (!out.isEmpty()) {
        out.append("\n\n");
      }
      if (!headings.get(i)) {
        p.forEach(l -> out.append(l.text()).append('\n'));
        out.setLength(out.length() - 1);
        continue;
      }
      String text = String.join(" ", p.stream().map(Line::text).toList());
      int level = ranks.indexOf(p.getFirst().size()) + 1;
      if (i == firstHeading(headings) && sameTitle(text, title)) {
        titled = true;
        level = 1;
      } else if (titled) {
        level = Math.min(6, level + 1);
      }
      out.append("#".repeat(level)).append(' ').append(text);
    }
    return out.toString().strip();
  }

  /** The font size most characters are set in. */
  private float bodySize() {
    Map<Float, Integer> chars = new LinkedHashMap<>();
    lines.forEach(l -> chars.merge(l.size(), l.text().length(), Integer::sum));
    return chars.entrySet().stream()
        .max(Map.Entry.comparingByValue())
        .map(Map.Entry::getKey)
        .orElse(0f);
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

  private static int firstHeading(List<Boolean> headings) {
    return headings.indexOf(true);
  }

  private static boolean sameTitle(String heading, String title) {
    return title != null && norm(heading).equals(norm(title));
  }

  private static String norm(String s) {
    return s.replaceAll("\\s+", " ").strip().toLowerCase(Locale.ROOT);
  }
}
