package dev.brain.research.pack;

import dev.brain.research.plan.Concept;
import dev.brain.research.plan.Words;
import dev.brain.retrieval.EvidenceRow;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which of a plan's concepts an evidence row matches: the one test the ranking, the judge, the
 * inspector, the merges and the extractive synthesizer share, so they never disagree about what a
 * row covers.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class ConceptMatch {
  private ConceptMatch() {}

  /** The concept-match stems of a row: its text fields plus the words retrieval matched. */
  public static Set<String> stems(EvidenceRow row, Set<String> matchedWords) {
    var text = new StringBuilder();
    append(text, row.title());
    append(text, row.excerpt());
    append(text, row.summary());
    append(text, row.notePath());
    if (row.chunk() != null) {
      row.chunk().headingPath().forEach(h -> append(text, h));
    }
    row.userTags().forEach(t -> append(text, t.replace('-', ' ').replace('/', ' ')));
    matchedWords.forEach(w -> append(text, w));
    return Words.stems(text.toString());
  }

  private static void append(StringBuilder text, String value) {
    if (value != null) {
      text.append(value).append('\n');
    }
  }

  /** Whether a row (given its stems and tags) matches a concept. */
  public static boolean matches(Concept concept, Set<String> stems, List<String> userTags) {
    if (concept.role() == Concept.Role.TAG && userTags.contains(concept.preferred())) {
      return true;
    }
    for (String term : concept.terms()) {
      if (Words.matches(term, stems)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the ranking marked the row {@code partial_match}: some required concepts, not half. */
  public static boolean isPartial(EvidenceRow row) {
    return row.signals().contains("partial_match");
  }

  /** The required concepts that {@code row} matches. */
  public static List<Concept> matched(EvidenceRow row, List<Concept> concepts) {
    Set<String> stems = stems(row, new HashSet<>(row.matchedTerms()));
    return concepts.stream().filter(c -> matches(c, stems, row.userTags())).toList();
  }
}
