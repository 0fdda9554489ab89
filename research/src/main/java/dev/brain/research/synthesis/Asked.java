package dev.brain.research.synthesis;

import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.FollowUp;
import dev.brain.research.plan.QueryFamily;
import dev.brain.research.plan.Words;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A question as the extractive synthesizer reads it: its words, the plan's concepts (the required
 * ones apart), the kinds of thing it asks for ({@link AnswerShape}) and its form ({@link
 * QuestionForm}).
 *
 * @param text the question
 * @param concepts the plan's concepts
 * @param required the required ones
 * @param kinds the kinds of answer its parts want (a date, a figure, a name, a model number)
 * @param form what kind of answer its wording asks for
 * @param overview whether it asks about a broad topic rather than a fact
 */
record Asked(
    String text,
    List<Concept> concepts,
    List<Concept> required,
    Set<AnswerShape.Kind> kinds,
    QuestionForm form,
    boolean overview) {

  Asked {
    concepts = List.copyOf(concepts);
    required = List.copyOf(required);
    kinds = Set.copyOf(kinds);
  }

  /**
   * The question of {@code pack}; the form of a follow-up is that of the question it was read as (a
   * bare "why?" asks why, like the "Why …" it stands for).
   */
  static Asked of(ResearchPack pack) {
    String q = pack.question();
    FollowUp up = pack.queryPlan().followUp();
    return new Asked(
        q,
        pack.queryPlan().concepts(),
        pack.queryPlan().requiredConcepts(),
        AnswerShape.kinds(q),
        QuestionForm.of(up == null ? q : up.resolvedQuestion()),
        pack.queryPlan().queryFamily() == QueryFamily.ENTITY_TOPIC_OVERVIEW);
  }

  /**
   * Whether sentence {@code shown} (Markdown) of block {@code b} of {@code t} offers what the
   * question asks for: the kind of thing ({@link AnswerShape}; a date also by the title of a note
   * named after its day), or what its form wants ({@link QuestionForm#offers}) judged against the
   * section's headings; {@code introduces} when it leads into a code block, list or table.
   */
  boolean offers(RowText t, int b, String shown, boolean introduces) {
    String plain = Sentences.plain(shown);
    // A note titled with a date (a daily note) tells when what it says happened.
    boolean dated =
        kinds.contains(AnswerShape.Kind.DATE)
            && AnswerShape.offers(AnswerShape.Kind.DATE, text, t.title().replace('-', ' '));
    return dated
        || AnswerShape.offers(kinds, text, plain)
        || form.offers(text, shown, context(t, b), introduces);
  }

  /** The stems of the headings block {@code b} of {@code t} sits under, and its callout's title. */
  static Set<String> context(RowText t, int b) {
    var out = new HashSet<String>();
    t.headingPath(b).forEach(h -> out.addAll(Words.stems(h)));
    out.addAll(Words.stems(t.blocks.get(b).title()));
    return out;
  }
}
