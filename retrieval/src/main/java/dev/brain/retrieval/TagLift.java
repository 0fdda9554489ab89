package dev.brain.retrieval;

import java.util.ArrayList;
import java.util.List;

/**
 * A tag alone does not outrank the words ({@link SearchOptions#tagOnlyBelowWords()}): a row the
 * exact-tag lane found whose own words hold none of the query's moves below the rows that do.
 */
final class TagLift {
  private TagLift() {}

  /**
   * A row and how it matches the query's words.
   *
   * @param words whether a query word is in its title, aliases, a heading or the text of a kept
   *     chunk (a word found only among its tags does not count)
   * @param liftedByTag found by the exact-tag lane with no query word of its own, through a tag the
   *     query did not write as {@code #tag}: its tag is its only match
   */
  record Ranked(EvidenceRow row, boolean words, boolean liftedByTag) {}

  /**
   * The rows in order, except that a row whose only match is a tag moves below the last row that
   * matches a query word: a tag says what a note is filed under, not that it says anything about
   * the words asked for, so the exact-tag lane (and the BM25 lane's tag bonus) cannot lift it over
   * rows that do. Ranks are renumbered from 1.
   */
  static List<EvidenceRow> belowWords(List<Ranked> rows) {
    int lastWords = -1;
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i).words()) {
        lastWords = i;
      }
    }
    var ordered = new ArrayList<EvidenceRow>(rows.size());
    var held = new ArrayList<EvidenceRow>();
    for (int i = 0; i < rows.size(); i++) {
      Ranked r = rows.get(i);
      if (i < lastWords && r.liftedByTag()) {
        held.add(r.row());
        continue;
      }
      ordered.add(r.row());
      if (i == lastWords) {
        ordered.addAll(held);
      }
    }
    var out = new ArrayList<EvidenceRow>(ordered.size());
    for (EvidenceRow row : ordered) {
      out.add(row.rank() == out.size() + 1 ? row : row.withRank(out.size() + 1));
    }
    return out;
  }
}
