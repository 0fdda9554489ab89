package dev.brain.research.pack;

import dev.brain.chunking.MarkdownText;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.Words;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Query-centred windows of a stored text, for the runner's inspection and for rows it reads from
 * the index itself (related expansion, pinned evidence): the window of at most {@code maxChars}
 * around the densest cluster of concept words (required concepts weigh double), never cutting a
 * word, shown as a reader sees it (a note's Markdown as its visible text, {@link MarkdownText}),
 * whitespace runs collapsed, with {@code …} where text was cut.
 */
final class Windows {
  private Windows() {}

  /** Marks text cut off before or after a window. */
  static final String ELLIPSIS = "…";

  /**
   * A window.
   *
   * @param start offset of its first character in the text
   * @param end offset after its last character
   * @param text the window as shown (collapsed whitespace, ellipses where cut)
   */
  record Window(int start, int end, String text) {}

  private record Match(int start, int end, String concept, int weight) {}

  /**
   * The window of {@code text}; {@code hintStart}/{@code hintEnd} (the best chunk's span, or -1)
   * place it when no concept word occurs.
   */
  static Window around(
      String text,
      List<Concept> concepts,
      int maxChars,
      int hintStart,
      int hintEnd,
      boolean markdown) {
    if (text.length() <= maxChars) {
      return new Window(0, text.length(), MarkdownText.visibleText(text, markdown));
    }
    int budget = maxChars - 2 * ELLIPSIS.length();
    List<Match> matches = matches(text, concepts);
    int centre =
        matches.isEmpty()
            ? (hintStart >= 0 ? (hintStart + Math.max(hintStart, hintEnd)) / 2 : budget / 2)
            : cluster(matches, budget, hintStart);
    int start = Math.max(0, centre - budget / 2);
    int end = Math.min(text.length(), start + budget);
    start = Math.max(0, end - budget);
    start = snapStart(text, start);
    end = snapEnd(text, end);
    String body = MarkdownText.visibleText(text.substring(start, end), markdown);
    return new Window(
        start, end, (start > 0 ? ELLIPSIS : "") + body + (end < text.length() ? ELLIPSIS : ""));
  }

  private static List<Match> matches(String text, List<Concept> concepts) {
    Map<String, Concept> byStem = new HashMap<>();
    for (Concept c : concepts) {
      for (String term : c.terms()) {
        for (String part : term.split("[\\s\\-/_]+")) {
          String w = Words.lower(part);
          if (!w.isEmpty() && !Words.isStop(w)) {
            byStem.putIfAbsent(Words.stem(w), c);
          }
        }
      }
    }
    var out = new ArrayList<Match>();
    for (Words.Token t : Words.tokens(text)) {
      Concept c = byStem.get(Words.stem(t.lower()));
      if (c != null) {
        out.add(new Match(t.start(), t.start() + t.text().length(), c.key(), c.required() ? 2 : 1));
      }
    }
    return out;
  }

  /**
   * The centre of the run of matches that fits the budget with the most concept weight (distinct
   * concepts), then the most matches, then the nearest to the hint.
   */
  private static int cluster(List<Match> matches, int budget, int hint) {
    int bestFrom = 0;
    int bestTo = 0;
    int bestWeight = -1;
    int bestCount = -1;
    int bestDistance = Integer.MAX_VALUE;
    for (int i = 0; i < matches.size(); i++) {
      Set<String> seen = new HashSet<>();
      int weight = 0;
      int j = i;
      while (j < matches.size() && matches.get(j).end() - matches.get(i).start() <= budget) {
        if (seen.add(matches.get(j).concept())) {
          weight += matches.get(j).weight();
        }
        j++;
      }
      int count = j - i;
      int distance = hint < 0 ? 0 : Math.abs(matches.get(i).start() - hint);
      if (weight > bestWeight
          || (weight == bestWeight && count > bestCount)
          || (weight == bestWeight && count == bestCount && distance < bestDistance)) {
        bestWeight = weight;
        bestCount = count;
        bestDistance = distance;
        bestFrom = matches.get(i).start();
        bestTo = matches.get(j - 1).end();
      }
    }
    return (bestFrom + bestTo) / 2;
  }

  /** Moves a start inside a word to the start of the next word. */
  private static int snapStart(String text, int start) {
    if (start == 0 || Character.isWhitespace(text.charAt(start - 1))) {
      return start;
    }
    int s = start;
    while (s < text.length() && !Character.isWhitespace(text.charAt(s))) {
      s++;
    }
    return s < text.length() ? s : start;
  }

  /** Moves an end inside a word back to the end of the previous word. */
  private static int snapEnd(String text, int end) {
    if (end == text.length() || Character.isWhitespace(text.charAt(end))) {
      return end;
    }
    int e = end;
    while (e > 0 && !Character.isWhitespace(text.charAt(e - 1))) {
      e--;
    }
    return e > 0 ? e : end;
  }

  static String collapse(String s) {
    return s.replaceAll("\\s+", " ").strip();
  }
}
