package dev.brain.chunking;

import dev.brain.chunking.Piece.Kind;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits ranges of a raw text into trimmed {@link Piece}s: paragraphs, sentences, lines, words.
 * Every split covers all non-whitespace characters of its range, so the token counts of the parts
 * add up to (about) the count of the whole.
 */
final class TextPieces {

  private TextPieces() {}

  /** The trimmed range, or {@code null} if {@code [start, end)} is all whitespace. */
  static Piece trimmed(String text, int start, int end, Kind kind) {
    int s = start;
    int e = end;
    while (s < e && Character.isWhitespace(text.charAt(s))) {
      s++;
    }
    while (e > s && Character.isWhitespace(text.charAt(e - 1))) {
      e--;
    }
    return s == e ? null : Piece.of(s, e, kind);
  }

  /** Blank-line separated paragraphs of {@code [start, end)}, as {@link Kind#PROSE}. */
  static List<Piece> paragraphs(String text, int start, int end) {
    List<Piece> out = new ArrayList<>();
    int paragraphStart = -1;
    int lineStart = start;
    while (lineStart < end) {
      int lineEnd = lineEnd(text, lineStart, end);
      boolean blank = trimmed(text, lineStart, lineEnd, Kind.LINE) == null;
      if (blank && paragraphStart >= 0) {
        addTrimmed(out, text, paragraphStart, lineStart, Kind.PROSE);
        paragraphStart = -1;
      } else if (!blank && paragraphStart < 0) {
        paragraphStart = lineStart;
      }
      lineStart = nextLineStart(text, lineEnd, end);
    }
    if (paragraphStart >= 0) {
      addTrimmed(out, text, paragraphStart, end, Kind.PROSE);
    }
    return out;
  }

  /** Sentences of {@code [start, end)} by {@link BreakIterator} with {@link Locale#ROOT}. */
  static List<Piece> sentences(String text, int start, int end) {
    BreakIterator sentences = BreakIterator.getSentenceInstance(Locale.ROOT);
    sentences.setText(text.substring(start, end));
    List<Piece> out = new ArrayList<>();
    int from = sentences.first();
    for (int to = sentences.next(); to != BreakIterator.DONE; from = to, to = sentences.next()) {
      addTrimmed(out, text, start + from, start + to, Kind.SENTENCE);
    }
    return out;
  }

  /** Non-blank lines of {@code [start, end)}; {@code \n}, {@code \r\n} and {@code \r} end lines. */
  static List<Piece> lines(String text, int start, int end) {
    List<Piece> out = new ArrayList<>();
    int lineStart = start;
    while (lineStart < end) {
      int lineEnd = lineEnd(text, lineStart, end);
      addTrimmed(out, text, lineStart, lineEnd, Kind.LINE);
      lineStart = nextLineStart(text, lineEnd, end);
    }
    return out;
  }

  /** Maximal runs of non-whitespace characters in {@code [start, end)}. */
  static List<Piece> words(String text, int start, int end) {
    List<Piece> out = new ArrayList<>();
    int i = start;
    while (i < end) {
      while (i < end && Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      int wordStart = i;
      while (i < end && !Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      if (i > wordStart) {
        out.add(Piece.of(wordStart, i, Kind.WORD));
      }
    }
    return out;
  }

  /** Offset of the start of the line holding {@code index}. */
  static int lineStart(String text, int index) {
    int i = index;
    while (i > 0 && text.charAt(i - 1) != '\n' && text.charAt(i - 1) != '\r') {
      i--;
    }
    return i;
  }

  /** Offset of the line break ending the line that starts at {@code from} (or {@code end}). */
  static int lineEnd(String text, int from, int end) {
    int i = from;
    while (i < end && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
      i++;
    }
    return i;
  }

  /** Offset after the line break at {@code lineEnd} ({@code \r\n} counts as one). */
  static int nextLineStart(String text, int lineEnd, int end) {
    if (lineEnd < end && text.charAt(lineEnd) == '\r') {
      lineEnd++;
    }
    if (lineEnd < end && text.charAt(lineEnd) == '\n') {
      lineEnd++;
    }
    return lineEnd;
  }

  private static void addTrimmed(List<Piece> out, String text, int start, int end, Kind kind) {
    Piece piece = trimmed(text, start, end, kind);
    if (piece != null) {
      out.add(piece);
    }
  }
}
