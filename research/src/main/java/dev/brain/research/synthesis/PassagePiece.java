package dev.brain.research.synthesis;

import java.util.ArrayList;
import java.util.List;

/** What a pick shows: blocks {@code first} to {@code last} as {@code parts}. */
record PassagePiece(int first, int last, List<String> parts, List<Integer> blocks) {
  PassagePiece(int first, int last, List<String> parts) {
    this(first, last, parts, List.of());
  }

  /**
   * Its parts, those of blocks {@code from} to {@code to} first (when it knows its parts' blocks),
   * the others after them in text order.
   */
  List<String> partsFrom(int from, int to) {
    if (blocks.isEmpty()) {
      return parts;
    }
    var out = new ArrayList<String>();
    var rest = new ArrayList<String>();
    for (int i = 0; i < parts.size(); i++) {
      (blocks.get(i) >= from && blocks.get(i) <= to ? out : rest).add(parts.get(i));
    }
    out.addAll(rest);
    return out;
  }

  /** Characters of its prose: a fenced code block is read at a glance, not counted. */
  int chars() {
    return parts.stream()
        .filter(p -> !p.startsWith("```") && !p.startsWith("~~~"))
        .mapToInt(String::length)
        .sum();
  }

  boolean overlaps(PassagePiece other) {
    return first <= other.last && other.first <= last;
  }
}
