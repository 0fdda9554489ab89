package dev.brain.research.synthesis;

import dev.brain.chunking.MarkdownText;
import dev.brain.research.plan.Words;
import dev.brain.retrieval.ChunkRef;
import dev.brain.retrieval.EvidenceRow;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The whole sentences an evidence row offers for quoting. The text is the row's retrieved chunk
 * spans in the record's raw text, widened to the blocks they touch (or, without the raw text, the
 * row's excerpt), rendered from Markdown by {@link MarkdownText} and split into sentences by the
 * JDK's sentence {@link BreakIterator}. A sentence cut by the edge of a span or an excerpt ({@code
 * …}) is left out rather than quoted in part; headings, questions and fragments are left out too,
 * and so is a line that only points to other notes ("See Reciprocal rank fusion and Tokenizer
 * decisions.", "Gear: Running shoes"): it names what another note says without saying it.
 */
final class EvidenceSentences {

  /** Marks an excerpt cut before or after its text. */
  private static final String ELLIPSIS = "\u2026";

  /** Shortest statement worth quoting, in characters. */
  static final int MIN_CHARS = 12;

  /** Longest sentence quoted; longer ones are left out, never cut. */
  static final int MAX_CHARS = 600;

  /** Block numbers reserved per span, so that block numbers of a row's spans never meet. */
  private static final int SPAN_BLOCKS = 100_000;

  /** How far a span is widened to reach the start or end of its block. */
  private static final int WIDEN = 800;

  private EvidenceSentences() {}

  /**
   * A quotable sentence and what it is about: the record's title and the nearest heading above it
   * ("Niche Zero · Grind settings I settled on" for "Espresso: 15 on the dial.").
   *
   * @param text the sentence
   * @param context the title and heading, or empty
   * @param block which block of its text the sentence is in (sentences of one paragraph share it)
   * @param opens the heading the sentence is the first statement under, or empty: a reader takes
   *     "4. Descaling / The interval depends on water hardness." as a statement about descaling
   * @param lead whether the sentence is the first statement of the record's text, the one that says
   *     what the record is about (a news story's who-did-what sentence)
   */
  record Quote(String text, String context, int block, String opens, boolean lead) {}

  /** The quotable sentences of {@code row} with their context, in text order. */
  static List<Quote> quotes(EvidenceRow row, Function<String, Optional<String>> rawText) {
    String title = row.title() == null ? "" : row.title().strip();
    List<String> path = row.chunk() == null ? List.of() : row.chunk().headingPath();
    String firstHeading = path.isEmpty() ? "" : path.get(path.size() - 1);
    var out = new ArrayList<Quote>();
    for (Located s : located(row, rawText)) {
      String heading = s.heading() == null ? firstHeading : s.heading();
      String context =
          heading.isEmpty() || heading.equalsIgnoreCase(title)
              ? title
              : title.isEmpty() ? heading : title + " · " + heading;
      out.add(new Quote(s.text(), context, s.block(), s.opens(), s.lead()));
    }
    return out;
  }

  /**
   * A sentence, the heading last seen before it in its text (or {@code null}), its block, the
   * heading it opens, whether it is the text's first statement.
   */
  private record Located(String text, String heading, int block, String opens, boolean lead) {}

  private static List<Located> located(
      EvidenceRow row, Function<String, Optional<String>> rawText) {
    Optional<String> raw =
        row.chunk() != null && isRawText(row.chunk())
            ? rawText.apply(row.sourceKey())
            : Optional.empty();
    if (raw.isPresent() && !row.chunk().spans().isEmpty()) {
      var out = new ArrayList<Located>();
      var seen = new HashSet<String>();
      int spanIndex = 0;
      for (ChunkRef.Span span : row.chunk().spans()) {
        for (Located s :
            spanSentences(raw.get(), span.startChar(), span.endChar(), isMarkdown(row))) {
          if (seen.add(s.text())) {
            // Blocks of different spans never count as one.
            out.add(
                new Located(
                    s.text(),
                    s.heading(),
                    spanIndex * SPAN_BLOCKS + s.block(),
                    s.opens(),
                    s.lead()));
          }
        }
        spanIndex++;
      }
      if (!out.isEmpty()) {
        return out;
      }
    }
    return excerptSentences(row.excerpt());
  }

  /**
   * Whether a row's stored text is Markdown (notes, and text converted from HTML or feeds); a PDF's
   * text layer and a transcript are plain text with hard line breaks, read paragraph by paragraph.
   */
  private static boolean isMarkdown(EvidenceRow row) {
    return MarkdownText.isMarkdown(row.sourceType());
  }

  private static boolean isRawText(ChunkRef chunk) {
    return !"summary".equals(chunk.role());
  }

  /** The sentences of an excerpt; an edge marked {@code …} cuts its sentence, which is dropped. */
  static List<String> ofExcerpt(String excerpt) {
    return excerptSentences(excerpt).stream().map(Located::text).toList();
  }

  private static List<Located> excerptSentences(String excerpt) {
    if (excerpt == null || excerpt.isBlank()) {
      return List.of();
    }
    String text = excerpt.strip();
    boolean cutStart = text.startsWith(ELLIPSIS);
    boolean cutEnd = text.endsWith(ELLIPSIS);
    if (cutStart) {
      text = text.substring(ELLIPSIS.length());
    }
    if (cutEnd) {
      text = text.substring(0, text.length() - ELLIPSIS.length());
    }
    return statements(MarkdownText.blocks(text), cutStart, cutEnd, false);
  }

  /** The sentences of {@code text[start, end)} widened to whole blocks where they are near. */
  static List<String> ofSpan(String text, int start, int end) {
    return spanSentences(text, start, end, true).stream().map(Located::text).toList();
  }

  private static List<Located> spanSentences(String text, int start, int end, boolean markdown) {
    int s = Math.max(0, Math.min(start, text.length()));
    int e = Math.max(s, Math.min(end, text.length()));
    int blockStart = text.lastIndexOf("\n\n", s);
    int lineStart = text.lastIndexOf('\n', Math.max(0, s - 1));
    if (s > 0 && blockStart >= 0 && s - blockStart <= WIDEN) {
      s = blockStart + 2;
    } else if (s > 0 && lineStart >= 0 && s - lineStart <= WIDEN) {
      s = lineStart + 1;
    }
    int blockEnd = text.indexOf("\n\n", e);
    int lineEnd = text.indexOf('\n', e);
    if (blockEnd >= 0 && blockEnd - e <= WIDEN) {
      e = blockEnd;
    } else if (lineEnd >= 0 && lineEnd - e <= WIDEN) {
      e = lineEnd;
    } else if (text.length() - e <= WIDEN) {
      e = text.length();
    }
    boolean cutStart = s > 0 && text.charAt(s - 1) != '\n';
    boolean cutEnd = e < text.length() && text.charAt(e) != '\n';
    String part = text.substring(s, e);
    return statements(
        markdown ? MarkdownText.blocks(part) : MarkdownText.plainBlocks(part),
        cutStart,
        cutEnd,
        s == 0);
  }

  /**
   * The quotable statements of {@code blocks}; with {@code textStart} (the blocks open the record's
   * text) the first of them is marked as the text's lead.
   */
  private static List<Located> statements(
      List<MarkdownText.Block> blocks, boolean cutStart, boolean cutEnd, boolean textStart) {
    boolean lead = textStart;
    var out = new ArrayList<Located>();
    String heading = null;
    String opens = "";
    for (int b = 0; b < blocks.size(); b++) {
      MarkdownText.Block block = blocks.get(b);
      if (block.heading()) {
        heading = block.text();
        opens = heading;
        continue;
      }
      List<String> sentences = split(block.text());
      for (int i = 0; i < sentences.size(); i++) {
        boolean cut =
            cutStart && b == 0 && i == 0
                || cutEnd && b == blocks.size() - 1 && i == sentences.size() - 1;
        String t = sentences.get(i);
        if (!cut && quotable(t) && !pointsElsewhere(t, block.links())) {
          out.add(new Located(t, heading, b, opens, lead));
          lead = false;
        }
        opens = "";
      }
    }
    return out;
  }

  /** The sentences of one block of text. */
  static List<String> split(String text) {
    var out = new ArrayList<String>();
    BreakIterator it = BreakIterator.getSentenceInstance(Locale.ENGLISH);
    it.setText(text);
    int start = it.first();
    for (int end = it.next(); end != BreakIterator.DONE; start = end, end = it.next()) {
      String s = text.substring(start, end).strip();
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }

  /** Longest link text read as a pointer to a note (its title), in words. */
  static final int MAX_POINTER_WORDS = 5;

  /** Words that, besides function words, only point: "See X", "Related: X", "cf. X". */
  private static final Set<String> POINTING =
      Set.of("see", "also", "via", "cf", "next", "previous", "related");

  /**
   * Whether {@code sentence} is little more than links: with its short links (note titles, not a
   * linked headline that states something) taken out, at most one word is left besides function
   * words ({@link Words#isStop}) and {@link #POINTING} words, as in a hub note's "Gear: Running
   * shoes".
   */
  static boolean pointsElsewhere(String sentence, List<String> links) {
    String rest = sentence;
    boolean linked = false;
    for (String link : links) {
      if (link.split(" ").length <= MAX_POINTER_WORDS && rest.contains(link)) {
        rest = rest.replace(link, " ");
        linked = true;
      }
    }
    if (!linked) {
      return false;
    }
    long said =
        Words.tokens(rest).stream()
            .map(Words.Token::lower)
            .filter(w -> !Words.isStop(w) && !POINTING.contains(w))
            .count();
    return said <= 1;
  }

  private static boolean quotable(String s) {
    return s.length() >= MIN_CHARS
        && s.length() <= MAX_CHARS
        && s.chars().anyMatch(Character::isLetter)
        && !s.endsWith("?");
  }
}
