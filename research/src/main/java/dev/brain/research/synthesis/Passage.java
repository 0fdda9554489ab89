package dev.brain.research.synthesis;

import dev.brain.research.plan.Concept;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What an answer quotes from one evidence row: a stretch of one section, shown as the reader sees
 * it, with the headings it sits under.
 *
 * @param text the row's text
 * @param first the first block shown
 * @param last the last block shown
 * @param headingPath the headings of its section, outermost first; empty before the first heading
 * @param parts what it shows, in text order: prose, list lines, fenced code
 * @param concepts the plan's concepts its words, headings and tags cover
 * @param lead the sentence it was built around
 */
record Passage(
    RowText text,
    int first,
    int last,
    List<String> headingPath,
    List<String> parts,
    Set<Concept> concepts,
    Candidate lead) {

  Passage {
    headingPath = List.copyOf(headingPath);
    parts = List.copyOf(parts);
    concepts = Collections.unmodifiableSet(new LinkedHashSet<>(concepts));
  }

  /** Whether it shows a block {@code other} shows too. */
  boolean overlaps(Passage other) {
    return text == other.text && first <= other.last && other.first <= last;
  }

  /** Its row's key. */
  String key() {
    return text.row.sourceKey();
  }

  /** Its Markdown, parts separated by blank lines. */
  String markdown() {
    return String.join("\n\n", parts);
  }
}
