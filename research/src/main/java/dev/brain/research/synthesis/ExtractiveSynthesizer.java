package dev.brain.research.synthesis;

import dev.brain.chunking.MarkdownBlocks.Kind;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.FollowUp;
import dev.brain.retrieval.Retriever;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The built-in, deterministic synthesizer: no model, no outside knowledge. It answers with
 * passages: the section of the best evidence that answers the question, shown as the reader sees it
 * (see {@link Passages}), under the headings it sits in and cited with its record key. The sentence
 * a passage is built around is chosen by {@link Scoring} among the sentences of the retrieved
 * blocks ({@link Candidates}); a second passage joins only for a required concept the first does
 * not cover ({@link PassageChoice}). When the pack holds no evidence it says only that.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class ExtractiveSynthesizer {

  private ExtractiveSynthesizer() {}

  /** The extractive answer of a prepared synthesis, quoting from the rows' excerpts alone. */
  public static SynthesisResult answer(PreparedSynthesis prepared) {
    return answer(prepared, EvidenceReader.EXCERPTS, List.of());
  }

  /**
   * The extractive answer of a prepared synthesis, quoting the stored texts the {@code retriever}
   * reads (the excerpts where a text cannot be read), ranked with the index's embedding model (by
   * coverage and answer type alone if it cannot load).
   */
  public static SynthesisResult answer(PreparedSynthesis prepared, Retriever retriever) {
    return answer(prepared, EvidenceReader.of(retriever), List.of());
  }

  /**
   * {@link #answer(PreparedSynthesis, Retriever)} for a run whose evidence stayed weak: {@code
   * unmatched} are the keys of the required concepts no top row matches after every retry. A thing
   * among them (a noun or a name of the question) that the quoted passages do not mention either
   * (and that is neither the corpus's subject nor an incidental token of the user's) is missing
   * from the answer, which is then {@code partial} and says so.
   */
  public static SynthesisResult answer(
      PreparedSynthesis prepared, Retriever retriever, List<String> unmatched) {
    return answer(prepared, EvidenceReader.of(retriever), unmatched);
  }

  /**
   * The extractive answer: the passages the prepared synthesis read (or, for one read back without
   * them, those {@code reader} gives) quoted from the included rows.
   */
  static SynthesisResult answer(PreparedSynthesis prepared, EvidenceReader reader) {
    return answer(prepared, reader, List.of());
  }

  private static SynthesisResult answer(
      PreparedSynthesis prepared, EvidenceReader reader, List<String> unmatched) {
    ResearchPack pack = prepared.pack();
    if (prepared.answerStatus() == AnswerStatus.NO_EVIDENCE) {
      return result(prepared, noEvidence(pack), List.of());
    }
    Quotes quotes =
        prepared.quotes() == Quotes.NONE ? Quotes.read(pack, reader) : prepared.quotes();
    var keys = new java.util.LinkedHashSet<String>();
    prepared.includedRows().forEach(r -> keys.add(r.sourceKey()));
    List<Passage> passages = quotes.answer(keys);
    if (passages.isEmpty()) {
      return declined(prepared, AnswerText.nothingQuotable(prepared.includedRows()));
    }
    FollowUp up = pack.queryPlan().followUp();
    if (up != null && QuestionForm.of(up.resolvedQuestion()) == QuestionForm.WHY) {
      // A why follow-up is answered by the sentences giving a reason, and only by them: when the
      // thread's notes hold none, it says so, never the earlier answer again as if it were one.
      List<Passage> reasons = quotes.reasons(keys);
      if (reasons.isEmpty()) {
        String line = AnswerText.noReason(up, passages.get(0));
        return result(prepared, AnswerStatus.PARTIAL, line, Citations.of(pack, line));
      }
      passages = reasons;
    }
    List<Concept> names = Names.written(pack.question(), pack.queryPlan().requiredConcepts());
    // A name common across the corpus is its subject ("Rust" in a book on Rust): context of the
    // question, which a passage need not repeat.
    // A name the corpus never mentions, however the question writes it ("with criterion"), and a
    // rare thing it never mentions ("publish with lerna"), are missing from any answer that was not
    // declined for them.
    var asked = new java.util.LinkedHashSet<Concept>(names);
    Names.asked(pack.question(), pack.queryPlan().requiredConcepts(), reader::pieces).stream()
        .filter(c -> pack.coverage().absentConcepts().contains(c.key()))
        .forEach(asked::add);
    asked.addAll(Names.absentFiles(pack));
    // A thing the search looked for and no top row matched: a noun or a name of the question,
    // never how it says the rest ("which one wins", "builds take forever").
    asked.addAll(
        Names.things(
            pack.question(),
            pack.queryPlan().requiredConcepts().stream()
                .filter(c -> unmatched.contains(c.key()))
                .toList()));
    var missing = new ArrayList<String>();
    PassageChoice.missing(passages, List.copyOf(asked)).stream()
        .filter(c -> !pack.coverage().commonConcepts().contains(c.key()))
        .map(c -> Names.asWritten(pack.question(), c))
        .forEach(missing::add);
    // A release the question names that no passage mentions ("When will Vite 9 be released?"
    // answered with the 3.0 announcement).
    missing.addAll(Names.releasesMissing(pack, passages));
    // A question asking for a date or a figure whose passages are built around no sentence that
    // offers one (the ranking prefers such sentences): the passages are about the question, not
    // its answer ("When will 1.0 be released?" answered with the release policy).
    var values = AnswerShape.valuesAsked(pack.question());
    boolean valueMissing =
        !values.isEmpty()
            && passages.stream().noneMatch(p -> offersValue(p, values, pack.question()));
    String text = AnswerText.of(passages, missing, valueMissing ? values : Set.of());
    // A thing the question names that no quoted passage mentions, or the value it asks for that
    // none offers: the answer covers part of the question, and says so (its last line), never as a
    // full answer.
    AnswerStatus status =
        missing.isEmpty() && !valueMissing ? prepared.answerStatus() : AnswerStatus.PARTIAL;
    return result(prepared, status, text, Citations.of(pack, text));
  }

  /**
   * Whether passage {@code p} offers one of the {@code values} {@code question} asks for: its lead
   * sentence, or an item of the list or table right after the lead's paragraph that the passage
   * shows ("How many times to retry … / - Default: 2").
   */
  private static boolean offersValue(Passage p, Set<AnswerShape.Kind> values, String question) {
    String context = String.join("\n", p.headingPath());
    if (AnswerShape.offersValue(values, question, p.lead().shown(), context)) {
      return true;
    }
    RowText t = p.lead().text();
    int next = p.lead().block() + 1;
    if (t.blocks.get(p.lead().block()).kind() != Kind.PARAGRAPH || next > p.last()) {
      return false;
    }
    Kind kind = t.blocks.get(next).kind();
    return (kind == Kind.LIST || kind == Kind.TABLE)
        && t.blocks.get(next).units().stream()
            .anyMatch(u -> AnswerShape.offersValue(values, question, u.markdown(), context));
  }

  private static SynthesisResult result(
      PreparedSynthesis prepared, String answer, List<Citation> citations) {
    return result(prepared, prepared.answerStatus(), answer, citations);
  }

  private static SynthesisResult result(
      PreparedSynthesis prepared, AnswerStatus status, String answer, List<Citation> citations) {
    return new SynthesisResult(
        SynthesisResult.SCHEMA_VERSION,
        answer,
        status,
        prepared.answerWarnings(),
        prepared.truncation(),
        citations,
        prepared.promptVersion(),
        SynthesisResult.EXTRACTIVE,
        SynthesisResult.EXTRACTIVE,
        null);
  }

  /** The plain statement for a pack without evidence: what was searched, what is absent. */
  static String noEvidence(ResearchPack pack) {
    return AnswerText.noEvidence(pack);
  }

  /** A {@code no_evidence} result of a pack whose rows hold nothing to quote. */
  private static SynthesisResult declined(PreparedSynthesis prepared, String answer) {
    var warnings = new ArrayList<>(prepared.answerWarnings());
    if (!warnings.contains(AnswerWarning.NO_EVIDENCE)) {
      warnings.add(AnswerWarning.NO_EVIDENCE);
    }
    return new SynthesisResult(
        SynthesisResult.SCHEMA_VERSION,
        answer,
        AnswerStatus.NO_EVIDENCE,
        warnings,
        prepared.truncation(),
        List.of(),
        prepared.promptVersion(),
        SynthesisResult.EXTRACTIVE,
        SynthesisResult.EXTRACTIVE,
        null);
  }
}
