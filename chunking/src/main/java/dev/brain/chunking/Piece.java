package dev.brain.chunking;

import java.util.List;

/**
 * A trimmed range {@code [start, end)} of the raw text and how it may be split further when it
 * exceeds the token budget.
 *
 * @param start first character (never whitespace)
 * @param end after the last character (never whitespace before it)
 * @param kind how the range splits
 * @param parts the child blocks of a {@link Kind#CONTAINER}, partitioning the range; else empty
 */
record Piece(int start, int end, Kind kind, List<Piece> parts) {

  /** How a piece splits into finer pieces, coarsest first. */
  enum Kind {
    /** A Markdown block holding other blocks (list, list item, block quote): splits into them. */
    CONTAINER,
    /** Running text (paragraph, heading): splits into sentences. */
    PROSE,
    /** Code or HTML, where sentences mean nothing: splits into lines. */
    VERBATIM,
    /** One sentence: splits into lines if it spans several, else into words. */
    SENTENCE,
    /** One line: splits into words. */
    LINE,
    /** A run of non-whitespace characters: never split. */
    WORD
  }

  Piece {
    parts = List.copyOf(parts);
  }

  static Piece of(int start, int end, Kind kind) {
    return new Piece(start, end, kind, List.of());
  }
}
