package dev.brain.retrieval;

import dev.brain.index.CorpusRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * A row's chunk metadata: its kept chunks best first, with adjacent chunks (consecutive ordinals,
 * the same role, texts that overlap or touch) merged into spans of the record's text.
 */
final class ChunkSpans {

  private ChunkSpans() {}

  /** The chunk metadata of a row: kept chunks best first, adjacent ones merged into spans. */
  static ChunkRef chunkRef(List<StoredChunk> chunks, CorpusRecord record) {
    return chunkRef(chunks, gap(record, record::text));
  }

  /**
   * Whether the record's text between {@code end} and the start of chunk {@code next} (its text, or
   * its summary for a summary chunk) holds only whitespace.
   */
  interface Gap {
    boolean blank(StoredChunk next, int end);
  }

  /** The gaps of {@code record} (none blank without one), its raw text from {@code rawText}. */
  static Gap gap(CorpusRecord record, Supplier<String> rawText) {
    return (next, end) -> {
      String text = record == null ? null : textFor(record, next.role(), rawText);
      return text != null
          && next.startChar() <= text.length()
          && text.substring(end, next.startChar()).isBlank();
    };
  }

  /**
   * As {@link #chunkRef(List, CorpusRecord)}, with the record's gaps from {@code gap} (asked only
   * when two chunks leave a gap between them).
   */
  static ChunkRef chunkRef(List<StoredChunk> chunks, Gap gap) {
    StoredChunk best = chunks.get(0);
    List<ChunkRef.Span> spans = spans(chunks, gap);
    ChunkRef.Span bestSpan =
        spans.stream()
            .filter(s -> s.firstOrdinal() <= best.ordinal() && best.ordinal() <= s.lastOrdinal())
            .findFirst()
            .orElse(
                new ChunkRef.Span(
                    best.ordinal(), best.ordinal(), best.startChar(), best.endChar()));
    return new ChunkRef(
        chunks.stream().map(StoredChunk::chunkId).toList(),
        chunks.stream().map(StoredChunk::ordinal).toList(),
        best.role(),
        best.headingPath(),
        bestSpan.startChar(),
        bestSpan.endChar(),
        spans);
  }

  /**
   * Runs of chunks with consecutive ordinals and the same role whose texts overlap or touch (only
   * whitespace between them), as spans in ordinal order.
   */
  static List<ChunkRef.Span> spans(List<StoredChunk> chunks, CorpusRecord record) {
    return spans(chunks, gap(record, record == null ? () -> null : record::text));
  }

  private static List<ChunkRef.Span> spans(List<StoredChunk> chunks, Gap gap) {
    var sorted = new ArrayList<>(chunks);
    sorted.sort(Comparator.comparingInt(StoredChunk::ordinal));
    var spans = new ArrayList<ChunkRef.Span>();
    StoredChunk first = null;
    StoredChunk last = null;
    int end = 0;
    for (StoredChunk c : sorted) {
      if (last != null && continues(last, c, end, gap)) {
        last = c;
        end = Math.max(end, c.endChar());
        continue;
      }
      if (first != null) {
        spans.add(new ChunkRef.Span(first.ordinal(), last.ordinal(), first.startChar(), end));
      }
      first = c;
      last = c;
      end = c.endChar();
    }
    if (first != null) {
      spans.add(new ChunkRef.Span(first.ordinal(), last.ordinal(), first.startChar(), end));
    }
    return spans;
  }

  /** The text a chunk of {@code role} indexes: the summary for summary chunks, else the text. */
  private static String textFor(CorpusRecord record, String role, Supplier<String> rawText) {
    return "summary".equals(role) && record.summary() != null ? record.summary() : rawText.get();
  }

  private static boolean continues(StoredChunk prev, StoredChunk next, int end, Gap gap) {
    if (next.ordinal() != prev.ordinal() + 1 || !next.role().equals(prev.role())) {
      return false;
    }
    if (next.startChar() <= end) {
      return true;
    }
    return gap.blank(next, end);
  }
}
