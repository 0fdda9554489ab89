package dev.brain.research.synthesis;

import dev.brain.chunking.MarkdownBlocks.Unit;
import dev.brain.chunking.MarkdownText;
import dev.brain.research.pack.ConceptMatch;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.Words;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which passages an answer quotes: the passage around the best sentence first (from a row the
 * ranking did not find only partly matching, when there is one), then, in the order their sentences
 * score, the passages around the best sentence covering a required concept no passage covers yet
 * (scoring at least {@value #ADDING_FLOOR} of the best) and around close seconds (another section
 * of the best document, another document, or the note the best sentence links to), up to {@value
 * #MAX_PASSAGES} within {@value #ANSWER_CHARS} characters, none showing what another shows. When no
 * passage adds a required concept (or the question is a pasted error message), the first passage is
 * read further, up to {@value #FIRST_ROOM} characters, and the close seconds from other sections of
 * the best document give up their room to it. A broad topic instead gets the passage around the
 * best sentence of each of its top rows.
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
    out.add(Passages.around(sameSection(best, ranked), asked, true));
    // Then, best first: a passage covering a required concept no passage covers yet; a close
    // second from another section of the best document (the document that answers often says it
    // in more than one place); a close second from another document (the best-ranked document is
    // not always the one that answers).
    RowText t = best.text();
    Set<String> linked = linkedTitles(best);
    var sections = new java.util.HashSet<Integer>();
    sections.add(t.sectionStart(best.block()));
    var others = new java.util.HashSet<RowText>();
    var adding = new ArrayList<Passage>();
    var otherDocuments = new ArrayList<Passage>();
    for (Candidate c : ranked) {
      if (out.size() >= MAX_PASSAGES) {
        break;
      }
      boolean linkedTo = c.text() != t && c.required() > 0 && isLinked(c.text(), linked);
      if (addsConcept(c, out)) {
        if (c.score() < ADDING_FLOOR * best.score() && !linkedTo) {
          continue;
        }
        Passage p = Passages.around(sameSection(c, ranked), asked);
        if (out.stream().noneMatch(p::overlaps) && addsConcept(p, out)) {
          if (fit(out, p)) {
            adding.add(p);
          }
        }
        continue;
      }
      double floor = c.text() == t ? OTHER_SECTION_FLOOR : SECOND_FLOOR;
      if (c.score() < floor * best.score() && !linkedTo) {
        continue;
      }
      if (c.text() == t) {
        if (sections.size() <= OTHER_SECTIONS && sections.add(t.sectionStart(c.block()))) {
          fit(out, Passages.around(sameSection(c, ranked), asked));
        }
      } else if (!ConceptMatch.isPartial(c.text().row)
          && others.size() < OTHER_DOCUMENTS
          && others.add(c.text())) {
        Passage p = Passages.around(sameSection(c, ranked), asked);
        if (fit(out, p)) {
          otherDocuments.add(p);
        }
      }
    }
    // Other sections of the best document only score close to the best, and the best section, read
    // further, more often holds the answer than they do: when no passage adds a concept, the first
    // passage takes up to FIRST_ROOM characters, beside the close seconds from other documents
    // (the best-ranked document is not always the one that answers). For a pasted error message
    // (the section that explains a message goes on to its cause and its fix) only the passages
    // adding a concept keep their place. The others stay as far as they still fit.
    List<Passage> kept =
        asked.form() == QuestionForm.ERROR ? adding : adding.isEmpty() ? otherDocuments : null;
    if (kept != null) {
      widenFirst(out, kept, Passages.around(sameSection(best, ranked), asked, true, FIRST_ROOM));
    }
    return out;
  }

  /**
   * The titles the best sentence links to, normalized: each link's text and the name of the note it
   * points to ({@code [[Plantar fasciitis|my heel]]}, {@code [heel](Plantar%20fasciitis.md)}).
   * "physio says rest for the heel ([[Plantar fasciitis]])" sends the reader to the note that holds
   * the details, so that note is quoted next when it is evidence and covers a required concept,
   * whatever its score. A link counts when its text stands as words of the best sentence (its unit
   * may hold other sentences).
   */
  private static Set<String> linkedTitles(Candidate best) {
    String said = normalized(Sentences.plain(best.shown()));
    Unit unit = best.text().blocks.get(best.block()).units().get(best.unit());
    var out = new HashSet<String>();
    for (int i = 0; i < unit.links().size(); i++) {
      String shown = normalized(unit.links().get(i));
      if (shown.isEmpty() || Words.find(said, shown, false) == null) {
        continue;
      }
      out.add(shown);
      String note = noteName(unit.targets().get(i));
      if (!note.isEmpty()) {
        out.add(note);
      }
    }
    return out;
  }

  /**
   * Whether {@code t} is a note {@code linked} names: by its title or by its file's name (a link
   * names the file; the title may come from the note's front matter or first heading).
   */
  private static boolean isLinked(RowText t, Set<String> linked) {
    if (linked.isEmpty()) {
      return false;
    }
    String path = t.row.notePath();
    return linked.contains(normalized(t.title()))
        || path != null && linked.contains(noteName(path));
  }

  /**
   * The name of the note a link points to, normalized: the last part of its path, URL-decoded,
   * without a {@code .md}, {@code .mdx} or {@code .markdown} extension, a {@code #heading} or a
   * {@code ?query}; empty for a web address.
   */
  static String noteName(String target) {
    if (target.isEmpty() || target.contains("://") || target.startsWith("mailto:")) {
      return "";
    }
    String path = MarkdownText.linkPath(target);
    String name = path.substring(path.lastIndexOf('/') + 1);
    String lower = name.toLowerCase(Locale.ROOT);
    for (String ext : List.of(".markdown", ".mdx", ".md")) {
      if (lower.endsWith(ext)) {
        name = name.substring(0, name.length() - ext.length());
        break;
      }
    }
    return normalized(name);
  }

  private static String normalized(String title) {
    return title.strip().toLowerCase(Locale.ROOT);
  }

  /**
   * Puts {@code wider} in place of the first of {@code out}, then the passages of {@code kept} and
   * the others that still fit, in their order; nothing changes when {@code wider} does not fit
   * beside the passages of {@code kept}.
   */
  private static void widenFirst(List<Passage> out, List<Passage> kept, Passage wider) {
    int keptChars = chars(kept);
    if (!kept.isEmpty()
        && (wider.markdown().length() + keptChars > ANSWER_CHARS
            || kept.stream().anyMatch(wider::overlaps))) {
      return;
    }
    var later = new ArrayList<>(out.subList(1, out.size()));
    out.clear();
    out.add(wider);
    int keptLeft = keptChars;
    for (Passage p : later) {
      if (kept.contains(p)) {
        out.add(p);
        keptLeft -= p.markdown().length();
      } else if (chars(out) + p.markdown().length() + keptLeft <= ANSWER_CHARS) {
        fit(out, p); // never taking the room of a kept passage after it
      }
    }
  }

  private static int chars(List<Passage> passages) {
    return passages.stream().mapToInt(p -> p.markdown().length()).sum();
  }

  /**
   * Most prose characters of the first passage when no other passage adds a required concept, or
   * for a pasted error message: the room of the close seconds goes to the best section (a section
   * of up to this length shown whole, else more of its paragraphs naming a required concept).
   */
  static final int FIRST_ROOM = 1800;

  /**
   * Most characters of an answer's passages, the first included (the first is always kept): a
   * passage answers, not a chapter.
   */
  static final int ANSWER_CHARS = 2500;

  /**
   * Adds {@code p} when it shows nothing shown yet and the answer stays within its length; whether
   * it was added.
   */
  private static boolean fit(List<Passage> out, Passage p) {
    if (out.size() < MAX_PASSAGES
        && out.stream().noneMatch(p::overlaps)
        && chars(out) + p.markdown().length() <= ANSWER_CHARS) {
      out.add(p);
      return true;
    }
    return false;
  }

  /**
   * Share of the best score the best sentence of another document needs for that document to be
   * quoted too (up to {@value #OTHER_DOCUMENTS} of them), when it adds no required concept.
   */
  static final double SECOND_FLOOR = 0.7;

  /**
   * Share of the best score the sentence of a passage that adds a required concept needs: a
   * sentence whose only tie to the question is one concept (often through its heading: "Parts that
   * wear" for "what shoes was I wearing") adds that word, not an answer.
   */
  static final double ADDING_FLOOR = 0.4;

  /** Other documents quoted at most for scoring close to the best. */
  static final int OTHER_DOCUMENTS = 2;

  /** Other sections of the best row quoted at most. */
  static final int OTHER_SECTIONS = 2;

  /** Share of the best score a sentence of another section of the best row needs to be quoted. */
  static final double OTHER_SECTION_FLOOR = 0.7;

  /** Most sentences of one section a passage is built around. */
  static final int SECTION_LEADS = 4;

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
