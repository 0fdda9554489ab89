package dev.brain.research.synthesis;

import dev.brain.research.pack.ConceptMatch;
import dev.brain.research.pack.ResearchPack;
import dev.brain.retrieval.EvidenceRow;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a pack offers to quote: its rows' texts read into blocks, the sentences passages may be
 * built around ranked for the question, and the passages an answer quotes. Read once when the
 * synthesis input is prepared: the extractive answer quotes these passages, and a chat model is
 * given them as its evidence, so both answer from the same text.
 *
 * <p>Research-internal: public only because {@link PreparedSynthesis} carries it; not API.
 */
public final class Quotes {

  /** Nothing to quote: a pack without evidence, or one read without its texts. */
  static final Quotes NONE = new Quotes(null, List.of(), List.of());

  private final Asked asked;
  private final List<RowText> rows;
  private final List<Candidate> ranked;

  private Quotes(Asked asked, List<RowText> rows, List<Candidate> ranked) {
    this.asked = asked;
    this.rows = List.copyOf(rows);
    this.ranked = List.copyOf(ranked);
  }

  /** The quotes of {@code pack}'s rows (ranked rows, related rows, exact-tag examples). */
  static Quotes read(ResearchPack pack, EvidenceReader reader) {
    if (!pack.hasEvidence()) {
      return NONE;
    }
    var rows = new ArrayList<RowText>();
    for (EvidenceRow row : rowsOf(pack)) {
      rows.add(RowText.of(row, rows.size(), reader));
    }
    Asked asked = Asked.of(pack);
    List<Candidate> candidates = Candidates.of(rows, asked);
    List<Candidate> ranked = Scoring.ranked(candidates, asked.required(), asked.text(), reader);
    return new Quotes(asked, rows, ranked);
  }

  /** The rows of a pack that synthesis may include, each once, in pack order. */
  private static List<EvidenceRow> rowsOf(ResearchPack pack) {
    var keys = new LinkedHashSet<String>();
    var out = new ArrayList<EvidenceRow>();
    for (EvidenceRow row : pack.evidence()) {
      if (keys.add(row.sourceKey())) {
        out.add(row);
      }
    }
    for (EvidenceRow row : pack.exactTagEvidence()) {
      if (keys.add(row.sourceKey())) {
        out.add(row);
      }
    }
    return out;
  }

  /** The passages an answer quotes from the rows of {@code keys}, best first. */
  List<Passage> answer(Set<String> keys) {
    if (asked == null) {
      return List.of();
    }
    List<Candidate> included =
        ranked.stream().filter(c -> keys.contains(c.text().row.sourceKey())).toList();
    return PassageChoice.choose(included, asked);
  }

  /**
   * The passages built around the sentences of rows {@code keys} that give a reason or draw a
   * conclusion from one ({@link QuestionForm#WHY}), best first; empty when none does. Only a row
   * about everything the question requires counts: a reason in a note that shares one word with the
   * question is the reason for something else.
   */
  List<Passage> reasons(Set<String> keys) {
    if (asked == null) {
      return List.of();
    }
    List<Candidate> giving =
        ranked.stream()
            .filter(c -> keys.contains(c.text().row.sourceKey()))
            .filter(
                c ->
                    ConceptMatch.matched(c.text().row, asked.required()).size()
                        == asked.required().size())
            .filter(c -> QuestionForm.WHY.offers(asked.text(), c.shown(), Set.of(), false))
            .toList();
    return giving.isEmpty() ? List.of() : PassageChoice.choose(giving, asked);
  }

  /**
   * The passages of row {@code key} a chat model is given: those the extractive answer quotes from
   * it, else the passage around its best sentence; empty when it has nothing to quote.
   */
  List<Passage> ofRow(String key, List<Passage> answer) {
    List<Passage> own = answer.stream().filter(p -> p.key().equals(key)).toList();
    if (!own.isEmpty() || asked == null) {
      return own;
    }
    return ranked.stream()
        .filter(c -> c.text().row.sourceKey().equals(key))
        .findFirst()
        .map(c -> List.of(Passages.around(List.of(c), asked)))
        .orElse(List.of());
  }
}
