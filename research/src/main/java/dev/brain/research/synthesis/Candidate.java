package dev.brain.research.synthesis;

import dev.brain.research.plan.Concept;
import java.util.Set;

/**
 * A sentence of an evidence row that a passage may be built around: where it sits, what it covers
 * and how well it answers. A section holding only a short code block is one such statement, its
 * heading: then {@code block} is the code block, {@code unit} and {@code sentence} 0, {@code shown}
 * the heading's text.
 *
 * @param text the row's text
 * @param block the block it is in
 * @param unit the unit of that block (a list item, a table row; 0 for a paragraph)
 * @param sentence its position in the unit
 * @param shown the sentence as shown (Markdown, inline code in backticks)
 * @param said what it says: plain words, without a transcript's speaker label
 * @param concepts the plan's concepts it covers
 * @param inherited those of them it covers only through its context: its section's headings, a
 *     link's text, a code-only section's code
 * @param offers whether it offers what the question asks for (see {@link AnswerShape})
 * @param lead whether it is a saved source's opening statement
 * @param score how well it answers, once scored
 */
record Candidate(
    RowText text,
    int block,
    int unit,
    int sentence,
    String shown,
    String said,
    Set<Concept> concepts,
    Set<Concept> inherited,
    boolean offers,
    boolean lead,
    double score) {

  Candidate {
    // Insertion order kept: Set.copyOf would iterate in a different order on every JVM.
    concepts = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(concepts));
    inherited = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(inherited));
  }

  /** Its row's position among the rows quoted from (0 is the best). */
  int row() {
    return text.index;
  }

  /** How many required concepts it covers. */
  long required() {
    return concepts.stream().filter(Concept::required).count();
  }

  Candidate scored(double value) {
    return new Candidate(
        text, block, unit, sentence, shown, said, concepts, inherited, offers, lead, value);
  }
}
