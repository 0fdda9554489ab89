package dev.brain.retrieval;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Cuts the excerpt of an evidence row: a window of the best chunk's text (as a reader sees it)
 * centred on the densest cluster of query terms, at most {@code maxChars} long with its ellipses,
 * never cutting a word, whitespace runs collapsed to single spaces.
 */
final class Excerpts {
  private Excerpts() {}

  /** Marks text cut off before or after the window. */
  static final String ELLIPSIS = "…";

  /**
   * One occurrence of a query term.
   *
   * @param start offset of its first character in the text
   * @param end offset after its last character
   * @param term the analyzed term (distinct terms count more than repeats)
   */
  record Match(int start, int end, String term) {}

  /**
   * The excerpt of {@code text}.
   *
   * @param regionStart start of the best chunk: the window starts here when nothing matched
   * @param matches query-term occurrences in the best chunk, in text order
   */
  static String excerpt(String text, int regionStart, List<Match> matches, int maxChars) {
    if (text.length() <= maxChars) {
      return collapse(text);
    }
    int budget = maxChars - 2 * ELLIPSIS.length();
    int[] window =
        matches.isEmpty()
            ? fromStart(text.length(), Math.max(0, Math.min(regionStart, text.length())), budget)
            : aroundCluster(text.length(), cluster(matches, budget), budget);
    int start = snapStart(text, window[0], window[2]);
    int end = snapEnd(text, window[1], window[3]);
    String body = collapse(text.substring(start, end));
    return (start > 0 ? ELLIPSIS : "") + body + (end < text.length() ? ELLIPSIS : "");
  }

  /**
   * A window of {@code budget} chars from {@code from}. Returns {start, end, keepStart, keepEnd}.
   */
  private static int[] fromStart(int length, int from, int budget) {
    int end = Math.min(length, from + budget);
    int start = Math.max(0, end - budget);
    return new int[] {start, end, Math.max(start, Math.min(from, end)), Math.min(start + 1, end)};
  }

  /**
   * The span [first match start, last match end) of the run of matches that fits the budget and
   * covers the most distinct terms (then the most matches, then the earliest).
   */
  static int[] cluster(List<Match> matches, int budget) {
    int bestFrom = 0;
    int bestTo = 0;
    int bestDistinct = -1;
    int bestCount = -1;
    for (int i = 0; i < matches.size(); i++) {
      Set<String> distinct = new HashSet<>();
      int j = i;
      while (j < matches.size() && matches.get(j).end() - matches.get(i).start() <= budget) {
        distinct.add(matches.get(j).term());
        j++;
      }
      int count = j - i;
      if (distinct.size() > bestDistinct
          || (distinct.size() == bestDistinct && count > bestCount)) {
        bestDistinct = distinct.size();
        bestCount = count;
        bestFrom = i;
        bestTo = Math.max(i, j - 1);
      }
    }
    return new int[] {matches.get(bestFrom).start(), matches.get(bestTo).end()};
  }

  /**
   * A window of {@code budget} chars with the cluster in its middle, shifted to stay inside the
   * text. Returns {start, end, clusterStart, clusterEnd}.
   */
  private static int[] aroundCluster(int length, int[] cluster, int budget) {
    int span = Math.min(budget, cluster[1] - cluster[0]);
    int pad = (budget - span) / 2;
    int start = cluster[0] - pad;
    int end = start + budget;
    if (start < 0) {
      end -= start;
      start = 0;
    }
    if (end > length) {
      start = Math.max(0, start - (end - length));
      end = length;
    }
    return new int[] {start, end, cluster[0], Math.min(cluster[1], end)};
  }

  /** Moves a start that falls inside a word to the next word, never past {@code keep}. */
  private static int snapStart(String text, int start, int keep) {
    if (start == 0 || Character.isWhitespace(text.charAt(start - 1))) {
      return start;
    }
    int i = start;
    while (i < keep && !Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    return i < keep ? i + 1 : keep;
  }

  /** Moves an end that falls inside a word back to the previous word, never before {@code keep}. */
  private static int snapEnd(String text, int end, int keep) {
    if (end >= text.length() || Character.isWhitespace(text.charAt(end))) {
      return end;
    }
    int i = end;
    while (i > keep && !Character.isWhitespace(text.charAt(i - 1))) {
      i--;
    }
    return i > keep ? i - 1 : keep;
  }

  static String collapse(String s) {
    // A loop rather than a \\s+ regex: every row's excerpt goes through here, and the regex
    // (which replaced each single space with itself) showed up in profiles of row building. Most
    // windows have no run to collapse (their text was rendered on one line): one scan says so.
    if (isCollapsed(s)) {
      return s.strip();
    }
    var out = new StringBuilder(s.length());
    boolean inRun = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (isSpace(c)) {
        inRun = true;
        continue;
      }
      if (inRun && !out.isEmpty()) {
        out.append(' ');
      }
      inRun = false;
      out.append(c);
    }
    return out.toString().strip();
  }

  /** Whether {@code s} has no whitespace but single spaces between other characters. */
  private static boolean isCollapsed(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (isSpace(c) && (c != ' ' || i == 0 || i == n - 1 || s.charAt(i + 1) == ' ')) {
        return false;
      }
    }
    return true;
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
  }
}
