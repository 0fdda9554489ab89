package dev.brain.research.synthesis;

import dev.brain.research.pack.ConceptMatch;
import dev.brain.research.plan.Concept;
import java.util.ArrayList;
import java.util.List;

/**
 * Which passages an answer quotes: the passage around the best sentence first (from a row the
 * ranking did not find only partly matching, when there is one), then, for each required concept it
 * does not cover, the passage around the best sentence covering one, up to {@value #MAX_PASSAGES},
 * none showing what another shows. A broad topic instead gets the passage around the best sentence
 * of each of its top rows.
 */
final class PassageChoice {
  private PassageChoice() {}

  /** Most passages in an answer. */
  static final int MAX_PASSAGES = 5;

  /** The passages for {@code ranked} candidates (best first). */
  static List<Passage> choose(List<Candidate> ranked, List<Concept> concepts, boolean overview) {
    return overview ? perRow(ranked, concepts) : byConcept(ranked, concepts);
  }

  private static List<Passage> byConcept(List<Candidate> ranked, List<Concept> concepts) {
    var out = new ArrayList<Passage>();
    if (ranked.isEmpty()) {
      return out;
    }
    Candidate best =
        ranked.stream()
            .filter(c -> !ConceptMatch.isPartial(c.text().row))
            .findFirst()
            .orElse(ranked.getFirst());
    for (List<Candidate> section : bestRow(best, ranked)) {
      out.add(Passages.around(section, concepts));
    }
    for (Candidate c : ranked) {
      if (out.size() >= MAX_PASSAGES) {
        break;
      }
      if (addsConcept(c, out)) {
        Passage p = Passages.around(sameSection(c, ranked), concepts);
        if (out.stream().noneMatch(p::overlaps) && addsConcept(p, out)) {
          out.add(p);
        }
      }
    }
    return out;
  }

  /** Most sentences of the best row the answer is built around. */
  static final int LEADS = 4;

  /**
   * {@code best} and the next best sentences of its row, up to {@value #LEADS}, grouped by section
   * (the section of the best first): a document that answers often says it in more than one
   * paragraph.
   */
  private static List<List<Candidate>> bestRow(Candidate best, List<Candidate> ranked) {
    RowText t = best.text();
    var sections = new java.util.LinkedHashMap<Integer, List<Candidate>>();
    sections.computeIfAbsent(t.sectionStart(best.block()), k -> new ArrayList<>()).add(best);
    int leads = 1;
    for (Candidate c : ranked) {
      if (leads >= LEADS) {
        break;
      }
      if (c != best && c.text() == t) {
        sections.computeIfAbsent(t.sectionStart(c.block()), k -> new ArrayList<>()).add(c);
        leads++;
      }
    }
    return List.copyOf(sections.values());
  }

  /**
   * {@code best} and the next best sentences of its section, up to {@value #LEADS}: a section that
   * answers often says it in more than one paragraph.
   */
  private static List<Candidate> sameSection(Candidate best, List<Candidate> ranked) {
    RowText t = best.text();
    int section = t.sectionStart(best.block());
    var out = new ArrayList<Candidate>();
    out.add(best);
    for (Candidate c : ranked) {
      if (out.size() >= 2) {
        break;
      }
      if (c != best && c.text() == t && t.sectionStart(c.block()) == section) {
        out.add(c);
      }
    }
    return out;
  }

  /** For a broad topic: the passage around the best sentence of each top row, in rank order. */
  private static List<Passage> perRow(List<Candidate> ranked, List<Concept> concepts) {
    var out = new ArrayList<Passage>();
    var rows = new java.util.TreeSet<Integer>();
    ranked.forEach(c -> rows.add(c.row()));
    for (int row : rows) {
      if (out.size() >= MAX_PASSAGES) {
        break;
      }
      ranked.stream()
          .filter(c -> c.row() == row)
          .findFirst()
          .ifPresent(c -> out.add(Passages.around(c, concepts)));
    }
    return out;
  }

  /** Whether {@code c} covers a required concept no chosen passage covers. */
  private static boolean addsConcept(Candidate c, List<Passage> chosen) {
    return c.concepts().stream()
        .filter(Concept::required)
        .anyMatch(k -> chosen.stream().noneMatch(p -> p.concepts().contains(k)));
  }

  private static boolean addsConcept(Passage passage, List<Passage> chosen) {
    return passage.concepts().stream()
        .filter(Concept::required)
        .anyMatch(k -> chosen.stream().noneMatch(p -> p.concepts().contains(k)));
  }

  /** The required concepts none of {@code passages} covers. */
  static List<Concept> missing(List<Passage> passages, List<Concept> required) {
    return required.stream()
        .filter(k -> passages.stream().noneMatch(p -> p.concepts().contains(k)))
        .toList();
  }
}
