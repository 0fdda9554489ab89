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
  static List<Passage> choose(List<Candidate> ranked, Asked asked) {
    return asked.overview() ? perRow(ranked, asked) : byConcept(ranked, asked);
  }

  private static List<Passage> byConcept(List<Candidate> ranked, Asked asked) {
    var out = new ArrayList<Passage>();
    if (ranked.isEmpty()) {
      return out;
    }
    Candidate best =
        ranked.stream()
            .filter(c -> !ConceptMatch.isPartial(c.text().row))
            .findFirst()
            .orElse(ranked.getFirst());
    List<List<Candidate>> sections = bestRow(best, ranked);
    out.add(Passages.around(sections.getFirst(), asked, true));
    // A required concept the first passage does not cover comes first, then close seconds.
    for (Candidate c : ranked) {
      if (out.size() >= MAX_PASSAGES) {
        break;
      }
      if (addsConcept(c, out)) {
        Passage p = Passages.around(sameSection(c, ranked), asked);
        if (out.stream().noneMatch(p::overlaps) && addsConcept(p, out)) {
          fit(out, p);
        }
      }
    }
    // The best-ranked document is not always the one that answers: close seconds join.
    var others = new java.util.HashSet<RowText>();
    for (Candidate c : ranked) {
      if (c.score() < SECOND_FLOOR * best.score() || others.size() >= OTHER_DOCUMENTS) {
        break;
      }
      if (c.text() != best.text()
          && !ConceptMatch.isPartial(c.text().row)
          && others.add(c.text())) {
        fit(out, Passages.around(sameSection(c, ranked), asked));
      }
    }
    for (List<Candidate> section : sections.subList(1, sections.size())) {
      fit(out, Passages.around(section, asked));
    }
    return out;
  }

  /** Most characters of an answer's passages beyond the first: a passage answers, not a chapter. */
  static final int ANSWER_CHARS = 2500;

  /** Adds {@code p} when it shows nothing shown yet and the answer stays within its length. */
  private static void fit(List<Passage> out, Passage p) {
    int used = out.stream().mapToInt(x -> x.markdown().length()).sum();
    if (out.size() < MAX_PASSAGES
        && out.stream().noneMatch(p::overlaps)
        && used + p.markdown().length() <= ANSWER_CHARS) {
      out.add(p);
    }
  }

  /**
   * Share of the best score the best sentence of another document needs for that document to be
   * quoted too (up to {@value #OTHER_DOCUMENTS} of them), when it adds no required concept.
   */
  static final double SECOND_FLOOR = 0.7;

  /** Other documents quoted at most for scoring close to the best. */
  static final int OTHER_DOCUMENTS = 2;

  /** Other sections of the best row quoted at most. */
  static final int OTHER_SECTIONS = 2;

  /** Share of the best score a sentence of another section of the best row needs to be quoted. */
  static final double OTHER_SECTION_FLOOR = 0.7;

  /** Most sentences of one section a passage is built around. */
  static final int SECTION_LEADS = 4;

  /**
   * The sentences of the best row passages are built around: {@code best} with the next best of its
   * section, then the best of another section: a document that answers often says it in more than
   * one paragraph, and more than one place.
   */
  private static List<List<Candidate>> bestRow(Candidate best, List<Candidate> ranked) {
    RowText t = best.text();
    int section = t.sectionStart(best.block());
    var out = new ArrayList<List<Candidate>>();
    out.add(sameSection(best, ranked));
    var sections = new java.util.HashSet<Integer>();
    sections.add(section);
    double floor = OTHER_SECTION_FLOOR * best.score();
    for (Candidate c : ranked) {
      if (out.size() > OTHER_SECTIONS || c.score() < floor) {
        break;
      }
      if (c.text() == t && sections.add(t.sectionStart(c.block()))) {
        out.add(sameSection(c, ranked));
      }
    }
    return out;
  }

  /**
   * {@code best} and the next best sentences of its section, up to {@value #SECTION_LEADS}: a
   * section that answers often says it in more than one paragraph.
   */
  private static List<Candidate> sameSection(Candidate best, List<Candidate> ranked) {
    RowText t = best.text();
    int section = t.sectionStart(best.block());
    var out = new ArrayList<Candidate>();
    out.add(best);
    for (Candidate c : ranked) {
      if (out.size() >= SECTION_LEADS) {
        break;
      }
      if (c != best && c.text() == t && t.sectionStart(c.block()) == section) {
        out.add(c);
      }
    }
    return out;
  }

  /** For a broad topic: the passage around the best sentence of each top row, in rank order. */
  private static List<Passage> perRow(List<Candidate> ranked, Asked asked) {
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
          .ifPresent(c -> out.add(Passages.around(List.of(c), asked)));
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
