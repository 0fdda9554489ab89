package dev.brain.research.synthesis;

import dev.brain.chunking.BrainWritten;
import dev.brain.chunking.MarkdownBlocks;
import dev.brain.chunking.MarkdownBlocks.Block;
import dev.brain.chunking.MarkdownBlocks.Kind;
import dev.brain.chunking.MarkdownText;
import dev.brain.retrieval.ChunkRef;
import dev.brain.retrieval.EvidenceRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The text of one evidence row as the blocks passages are cut from: the record's stored text parsed
 * into blocks (headings, paragraphs, lists, tables, callouts, code), with the blocks the retrieved
 * chunks touch marked; for a row found by its derived summary, the record's own text (a summary
 * leads the search to a record, never the answer); or, when the stored text cannot be read, the
 * row's excerpt, whose sentences cut by its edges ({@code …}) are marked. The {@code ## Research}
 * section brain wrote into a note is left out unless retrieval kept a chunk of it.
 */
final class RowText {

  /** Marks an excerpt cut before or after its text. */
  private static final String ELLIPSIS = "\u2026";

  /**
   * Rows read whole rather than section by section: the best documents, whose answering section may
   * be one retrieval's chunks missed (a chunk is kept for the question's words, a section is found
   * by its heading).
   */
  static final int WHOLE_ROWS = 3;

  final EvidenceRow row;
  final int index;
  final List<Block> blocks;
  private final boolean[] retrieved;
  private final boolean[] brainWritten;
  private final List<List<List<String>>> sentences;
  private final boolean cutFirst;
  private final boolean cutLast;

  private RowText(
      EvidenceRow row,
      int index,
      List<Block> blocks,
      boolean[] retrieved,
      boolean cutFirst,
      boolean cutLast) {
    this.row = row;
    this.index = index;
    this.blocks = blocks;
    this.retrieved = retrieved;
    this.brainWritten = new boolean[blocks.size()];
    this.cutFirst = cutFirst;
    this.cutLast = cutLast;
    this.sentences = new ArrayList<>();
    for (Block b : blocks) {
      var perUnit = new ArrayList<List<String>>();
      for (MarkdownBlocks.Unit u : b.units()) {
        perUnit.add(u.code() ? List.of() : Sentences.split(u.markdown()));
      }
      sentences.add(perUnit);
    }
  }

  /**
   * The text of {@code row} (at {@code index} among the rows quoted from), read by {@code reader}.
   */
  static RowText of(EvidenceRow row, int index, EvidenceReader reader) {
    ChunkRef chunk = row.chunk();
    // A derived summary may lead the search to a record, never the answer: the record's own text is
    // read instead, all of it (no chunk of the text was retrieved to say where).
    boolean summary = chunk != null && "summary".equals(chunk.role());
    boolean raw = chunk != null && (summary || !chunk.spans().isEmpty());
    Optional<String> text = raw ? reader.text(row.sourceKey()) : Optional.empty();
    if (text.isPresent()) {
      boolean markdown = MarkdownText.isMarkdown(row.sourceType());
      List<Block> all = MarkdownBlocks.of(text.get(), markdown);
      // brain writes its section into notes only, and the index looks for it there alone
      int[] brain = "note".equals(row.sourceType()) ? BrainWritten.span(text.get()) : null;
      List<ChunkRef.Span> spans = summary ? List.of() : chunk.spans();
      // Brain's own research section is quoted only when retrieval kept a chunk of it (research.
      // include-brain-written); else it is no part of the row's text.
      boolean keepBrain = brain != null && spans.stream().anyMatch(sp -> overlaps(sp, brain));
      var blocks = new ArrayList<Block>();
      var written = new ArrayList<Boolean>();
      for (Block block : all) {
        boolean ofBrain = brain != null && block.start() < brain[1] && brain[0] < block.end();
        if (!ofBrain || keepBrain) {
          blocks.add(block);
          written.add(ofBrain);
        }
      }
      var touched = new boolean[blocks.size()];
      for (int b = 0; b < blocks.size(); b++) {
        for (ChunkRef.Span span : spans) {
          Block block = blocks.get(b);
          touched[b] |= block.start() < span.endChar() && span.startChar() < block.end();
        }
      }
      if (index < WHOLE_ROWS || summary) {
        java.util.Arrays.fill(touched, true);
      }
      var rowText = new RowText(row, index, blocks, wholeSections(blocks, touched), false, false);
      for (int b = 0; b < blocks.size(); b++) {
        rowText.brainWritten[b] = written.get(b);
      }
      return rowText;
    }
    if (summary) {
      return new RowText(row, index, List.of(), new boolean[0], false, false);
    }
    return excerpt(row, index);
  }

  private static boolean overlaps(ChunkRef.Span span, int[] range) {
    return span.startChar() < range[1] && range[0] < span.endChar();
  }

  private static RowText excerpt(EvidenceRow row, int index) {
    String text = row.excerpt() == null ? "" : row.excerpt().strip();
    boolean cutStart = text.startsWith(ELLIPSIS);
    boolean cutEnd = text.endsWith(ELLIPSIS);
    if (cutStart) {
      text = text.substring(ELLIPSIS.length());
    }
    if (cutEnd) {
      text = text.substring(0, text.length() - ELLIPSIS.length());
    }
    List<Block> blocks = MarkdownBlocks.of(text, MarkdownText.isMarkdown(row.sourceType()));
    var rowText = new RowText(row, index, blocks, all(blocks), cutStart, cutEnd);
    // an excerpt of a chunk of brain's research section is all brain's
    java.util.Arrays.fill(rowText.brainWritten, "brain_written".equals(row.evidenceRole()));
    return rowText;
  }

  /** Every block marked retrieved: a text that is all evidence. */
  private static boolean[] all(List<Block> blocks) {
    var out = new boolean[blocks.size()];
    java.util.Arrays.fill(out, true);
    return out;
  }

  /**
   * Every block of a section a retrieved chunk touches: a chunk is a window of its section, and the
   * passage that answers may sit just outside the window retrieval kept.
   */
  private static boolean[] wholeSections(List<Block> blocks, boolean[] touched) {
    var out = new boolean[blocks.size()];
    int start = 0;
    for (int b = 0; b <= blocks.size(); b++) {
      if (b == blocks.size() || b > start && blocks.get(b).kind() == Kind.HEADING) {
        boolean any = false;
        for (int i = start; i < b; i++) {
          any |= touched[i];
        }
        for (int i = start; i < b; i++) {
          out[i] = any;
        }
        start = b;
      }
    }
    return out;
  }

  /**
   * Whether block {@code b} is of the {@code ## Research} section brain wrote into the note:
   * brain's text, shown only when asked for and then labelled as brain's, never as the user's.
   */
  boolean brainWritten(int b) {
    return brainWritten[b];
  }

  /** Whether retrieval's chunks touch block {@code b}. */
  boolean retrieved(int b) {
    return retrieved[b];
  }

  /** The sentences (Markdown) of unit {@code u} of block {@code b}; none for code. */
  List<String> sentences(int b, int u) {
    return sentences.get(b).get(u);
  }

  /** Whether block {@code b} is the last of an excerpt cut after its text. */
  boolean cutAfter(int b) {
    return cutLast && b == blocks.size() - 1;
  }

  /** Whether sentence {@code s} of unit {@code u} of block {@code b} was cut by an excerpt edge. */
  boolean cut(int b, int u, int s) {
    boolean first = b == 0 && u == 0 && s == 0;
    int lastBlock = blocks.size() - 1;
    boolean last =
        b == lastBlock && u == blocks.get(b).units().size() - 1 && s == sentences(b, u).size() - 1;
    return cutFirst && first || cutLast && last;
  }

  /** The first block of the section block {@code b} sits in (its heading, if it has one). */
  int sectionStart(int b) {
    int i = b;
    while (i > 0 && blocks.get(i).kind() != Kind.HEADING) {
      i--;
    }
    return i;
  }

  /** The block after the last of {@code b}'s section. */
  int sectionEnd(int b) {
    int i = b + 1;
    while (i < blocks.size() && blocks.get(i).kind() != Kind.HEADING) {
      i++;
    }
    return i;
  }

  /**
   * The headings block {@code b} sits under, its own section's heading last; empty before the first
   * heading.
   */
  List<String> headingPath(int b) {
    Block start = blocks.get(sectionStart(b));
    if (start.kind() != Kind.HEADING) {
      return start.headingPath();
    }
    var path = new ArrayList<>(start.headingPath());
    path.add(start.units().getFirst().text());
    return path;
  }

  /** The row's title, or empty. */
  String title() {
    return row.title() == null ? "" : row.title().strip();
  }

  /** Whether the row is one of the user's own notes rather than a saved source. */
  boolean isNote() {
    return "note".equals(row.sourceType());
  }
}
