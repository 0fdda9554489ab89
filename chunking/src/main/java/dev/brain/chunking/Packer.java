package dev.brain.chunking;

import dev.brain.chunking.Piece.Kind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Packs the pieces of a section into windows of at most {@code maxTokens}: consecutive pieces are
 * packed greedily, pieces that do not fit are split (blocks, sentences, lines, words), and each
 * window after the first starts with whole trailing units of the previous one as overlap. Token
 * counts are taken once per unit and summed, never per growing window. One per {@code chunk} call.
 */
final class Packer {

  /** A trimmed range of text; every chunk is one. */
  record Window(int start, int end, List<String> headingPath) {}

  private record Unit(Piece piece, int tokens) {}

  private final PieceCache pieces;
  private final int maxTokens;
  private final int overlapTokens;

  Packer(PieceCache pieces, int maxTokens, int overlapTokens) {
    this.pieces = pieces;
    this.maxTokens = maxTokens;
    this.overlapTokens = Math.min(overlapTokens, maxTokens / 2);
  }

  /**
   * Whether the sections together fit one window. Counting stops at the first block past the
   * budget, so a huge text is not counted whole just to learn that it does not fit.
   */
  boolean fits(List<Section> sections) {
    long used = 0;
    for (Section section : sections) {
      for (Piece block : section.blocks()) {
        used += pieces.tokens(block);
        if (used > maxTokens) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The first {@code limit} windows of one section, in text order. A piece that fits the room left
   * is added whole. A piece over the budget is split. A piece that fits the budget but not the room
   * is split too when the window is less than half full (so a heading is not left alone before a
   * long paragraph), but only down to sentences or lines, and never code; otherwise the window is
   * closed and the piece starts the next one, after the overlap.
   */
  List<Window> pack(Section section, int limit) {
    List<String> path = section.headingPath();
    if (fits(List.of(section))) {
      return List.of(new Window(section.start(), section.end(), path));
    }
    List<Window> windows = new ArrayList<>();
    List<Unit> current = new ArrayList<>();
    int used = 0;
    Deque<Piece> pending = new ArrayDeque<>(section.blocks());
    while (!pending.isEmpty()) {
      Piece piece = pending.pop();
      int tokens = pieces.tokens(piece);
      if (tokens <= maxTokens - used || current.isEmpty() && unsplittable(piece, tokens)) {
        current.add(new Unit(piece, tokens));
        used += tokens;
        continue;
      }
      List<Piece> parts = partsToFill(piece, tokens, used);
      if (!parts.isEmpty()) {
        parts.reversed().forEach(pending::push);
        continue;
      }
      windows.add(window(current, path));
      if (windows.size() >= limit) {
        return windows;
      }
      current = overlap(current, maxTokens - tokens);
      used = current.stream().mapToInt(Unit::tokens).sum();
      pending.push(piece);
    }
    windows.add(window(current, path));
    return windows;
  }

  private boolean unsplittable(Piece piece, int tokens) {
    return tokens > maxTokens && split(piece).isEmpty();
  }

  /** Parts of a piece that does not fit the room left, or empty to start a new window instead. */
  private List<Piece> partsToFill(Piece piece, int tokens, int used) {
    if (tokens > maxTokens) {
      return split(piece);
    }
    if (used >= maxTokens / 2 || piece.kind() == Kind.VERBATIM) {
      return List.of(); // code that fits the budget is kept whole
    }
    List<Piece> parts = split(piece);
    return parts.isEmpty() || parts.getFirst().kind() == Kind.WORD ? List.of() : parts;
  }

  /** The next finer pieces of {@code piece}; empty when it cannot be split (one word). */
  private List<Piece> split(Piece piece) {
    List<Piece> parts = pieces.parts(piece);
    boolean unsplittable = parts.size() == 1 && parts.getFirst().kind() == Kind.WORD;
    return unsplittable ? List.of() : parts;
  }

  /**
   * Whole trailing units of {@code previous}, at most the overlap budget and {@code room} tokens
   * (so the next unit still fits). A unit too big to carry whole is split to take its tail: down to
   * sentences or lines always, down to words only when not even one sentence fits (long sentences
   * of scientific prose would otherwise leave most chunks without overlap). A code block that
   * fitted the budget is carried whole or not at all.
   */
  private List<Unit> overlap(List<Unit> previous, int room) {
    List<Unit> carried = new ArrayList<>();
    trailing(previous.stream().map(Unit::piece).toList(), Math.min(overlapTokens, room), carried);
    return carried.reversed();
  }

  /** Adds trailing pieces of {@code tail} within {@code budget} tokens to {@code carried}. */
  private void trailing(List<Piece> tail, int budget, List<Unit> carried) {
    int left = budget;
    for (Piece piece : tail.reversed()) {
      if (left <= 0) {
        return;
      }
      int tokens = pieces.tokens(piece);
      if (tokens <= left) {
        carried.add(new Unit(piece, tokens));
        left -= tokens;
        continue;
      }
      List<Piece> parts = piece.kind() == Kind.VERBATIM ? List.of() : split(piece);
      boolean words = !parts.isEmpty() && parts.getFirst().kind() == Kind.WORD;
      if (!parts.isEmpty() && (!words || carried.isEmpty())) {
        trailing(parts, left, carried);
      }
      return;
    }
  }

  private static Window window(List<Unit> units, List<String> path) {
    return new Window(units.getFirst().piece.start(), units.getLast().piece.end(), path);
  }
}
