package dev.brain.chunking;

import dev.brain.chunking.Piece.Kind;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits and token counts of the pieces of one text, each computed once. Counts are taken
 * bottom-up: running text is counted sentence by sentence and a block's count is the sum of its
 * parts, so the tokenizer sees each character about once however many levels a piece passes through
 * (for a WordPiece tokenizer the sum equals the count of the whole). Not thread-safe: one per
 * {@code chunk} call.
 */
final class PieceCache {

  private final TokenCounter counter;
  private final String text;
  private final Map<Long, Integer> rangeCounts = new HashMap<>();
  private final Map<Piece, Integer> sums = new HashMap<>();
  private final Map<Piece, List<Piece>> parts = new HashMap<>();

  PieceCache(TokenCounter counter, String text) {
    this.counter = counter;
    this.text = text;
  }

  /** Tokens of {@code piece}: the sum over its parts for blocks, else one counter call. */
  int tokens(Piece piece) {
    if (piece.kind() != Kind.PROSE && piece.kind() != Kind.CONTAINER) {
      return countRange(piece);
    }
    Integer known = sums.get(piece);
    if (known != null) {
      return known;
    }
    List<Piece> children = parts(piece);
    int sum = children.isEmpty() ? countRange(piece) : 0;
    for (Piece child : children) {
      sum += tokens(child);
    }
    sums.put(piece, sum);
    return sum;
  }

  /** The next finer pieces of {@code piece}; empty for a word. */
  List<Piece> parts(Piece piece) {
    List<Piece> known = parts.get(piece);
    if (known == null) {
      known = split(piece);
      parts.put(piece, known);
    }
    return known;
  }

  private List<Piece> split(Piece piece) {
    return switch (piece.kind()) {
      case CONTAINER -> piece.parts();
      case PROSE -> TextPieces.sentences(text, piece.start(), piece.end());
      case VERBATIM -> TextPieces.lines(text, piece.start(), piece.end());
      case SENTENCE -> sentenceParts(piece);
      case LINE -> TextPieces.words(text, piece.start(), piece.end());
      case WORD -> List.of();
    };
  }

  private List<Piece> sentenceParts(Piece sentence) {
    List<Piece> lines = TextPieces.lines(text, sentence.start(), sentence.end());
    return lines.size() > 1 ? lines : TextPieces.words(text, sentence.start(), sentence.end());
  }

  private int countRange(Piece piece) {
    long range = ((long) piece.start() << 32) | piece.end();
    Integer known = rangeCounts.get(range);
    if (known != null) {
      return known;
    }
    String slice = text.substring(piece.start(), piece.end());
    int tokens = counter.count(slice);
    if (tokens < 0) {
      throw new IllegalStateException(
          "TokenCounter "
              + counter.getClass().getName()
              + " returned "
              + tokens
              + " tokens for a text of "
              + slice.length()
              + " characters; a token count must be zero or more");
    }
    rangeCounts.put(range, tokens);
    return tokens;
  }
}
