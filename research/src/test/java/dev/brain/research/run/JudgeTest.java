package dev.brain.research.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.research.pack.Coverage;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.Concept.Role;
import dev.brain.research.plan.QueryFamily;
import dev.brain.research.plan.QueryPlan;
import dev.brain.research.plan.QueryVariant;
import dev.brain.research.run.JudgeVerdict.RetryAction;
import dev.brain.research.run.JudgeVerdict.Verdict;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.RowRetrieval;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The judge on hand-made packs: every verdict and every retry action, from the pack alone. */
class JudgeTest {

  private static final Concept NICHE =
      new Concept("niche-zero", "niche zero", List.of("niche zero"), true, Role.ENTITY);
  private static final Concept GRIND =
      new Concept("grind", "grind", List.of("grind", "grinder setting"), true, Role.SUBJECT);
  private static final Concept DESCALE =
      new Concept("descale", "descale", List.of("descale", "decalcify"), true, Role.SUBJECT);
  private static final Concept WATER =
      new Concept("water", "water", List.of("water"), true, Role.SUBJECT);
  private static final List<Concept> CONCEPTS = List.of(NICHE, GRIND, DESCALE, WATER);

  @Test
  void aRowMatchingEveryRequiredConceptIsEnoughEvidence() {
    var pack =
        pack(
            CONCEPTS,
            List.of(),
            row(1, "note:a.md", "Niche Zero grind notes: descale the boiler with soft water"),
            row(2, "note:b.md", "The Niche Zero grinder setting"));

    JudgeVerdict v = judge(pack, 1);

    assertThat(v.verdict()).isEqualTo(Verdict.ENOUGH_EVIDENCE);
    assertThat(v.retryAction()).isEqualTo(RetryAction.NONE);
    assertThat(v.missingConcepts()).isEmpty();
    assertThat(v.weakRows())
        .extracting(JudgeVerdict.WeakRow::sourceKey)
        .containsExactly("note:b.md");
    assertThat(v.weakRows().get(0).missingConcepts()).containsExactly("descale", "water");
  }

  @Test
  void aMissingConceptThatTheCorpusHasAsksForAFocusedRetryAnchoredOnTheEntity() {
    var pack =
        pack(
            CONCEPTS,
            List.of(),
            row(1, "note:a.md", "Niche Zero grind 15 for espresso"),
            row(2, "note:b.md", "Niche Zero grind 42 for the V60"));

    JudgeVerdict v = judge(pack, 1);

    assertThat(v.verdict()).isEqualTo(Verdict.WEAK_EVIDENCE);
    assertThat(v.reason()).contains("no top row matches descale, water");
    assertThat(v.missingConcepts()).containsExactly("descale", "water");
    assertThat(v.retryAction()).isEqualTo(RetryAction.FOCUSED_RETRY);
    // Missing concepts with their synonyms first, then the anchors: the entity first.
    assertThat(v.retryQuery()).isEqualTo("descale decalcify water niche zero grind");
    assertThat(v.weakRows()).hasSize(2);
  }

  @Test
  void conceptsAbsentFromTheCorpusAskForARelatedExpansionFromTheStrongestRowInstead() {
    var pack =
        pack(
            CONCEPTS,
            List.of("descale", "water"),
            row(1, "note:a.md", "Niche Zero grind 15 for espresso"),
            row(2, "note:b.md", "Niche Zero grind 42 for the V60"));

    JudgeVerdict v = judge(pack, 1);

    assertThat(v.verdict()).isEqualTo(Verdict.WEAK_EVIDENCE);
    assertThat(v.retryAction()).isEqualTo(RetryAction.RELATED_EXPANSION);
    assertThat(v.expansionLookup()).isEqualTo("note:a.md");
    assertThat(v.retryQuery()).isNull();
  }

  @Test
  void aRetryThatAlreadyRanIsNotProposedAgain() {
    var pack = pack(CONCEPTS, List.of(), row(1, "note:a.md", "Niche Zero grind 15"));

    JudgeVerdict v =
        Judge.judge(
            new Judge.Input(pack, Set.of("descale decalcify water niche zero grind"), 1, false));

    assertThat(v.verdict()).isEqualTo(Verdict.WEAK_EVIDENCE);
    assertThat(v.retryAction()).isEqualTo(RetryAction.NONE);
  }

  @Test
  void partialAndTagOnlyRowsAreWeakEvenWhenTogetherTheyCoverEveryConcept() {
    var pack =
        pack(
            List.of(NICHE, GRIND),
            List.of(),
            withSignal(row(1, "note:a.md", "Niche Zero grind"), "partial_match"),
            tagOnly(row(2, "bm:1", "Niche Zero grind")));

    JudgeVerdict v = judge(pack, 1);

    assertThat(v.verdict()).isEqualTo(Verdict.WEAK_EVIDENCE);
    assertThat(v.reason()).contains("partial, tag-only or semantic");
    assertThat(v.retryAction()).isEqualTo(RetryAction.RELATED_EXPANSION);
    assertThat(v.weakRows())
        .extracting(JudgeVerdict.WeakRow::reason)
        .anySatisfy(r -> assertThat(r).contains("less than half"))
        .anySatisfy(r -> assertThat(r).contains("user tag alone"));
  }

  @Test
  void oneMissingPlainWordOfADirectMatchIsStillEnough() {
    var size = new Concept("size", "size", List.of("size"), true, Role.SUBJECT);
    var pack =
        pack(List.of(NICHE, GRIND, size), List.of(), row(1, "note:a.md", "Niche Zero grind 15"));

    JudgeVerdict v = judge(pack, 1);

    assertThat(v.verdict()).isEqualTo(Verdict.ENOUGH_EVIDENCE);
    assertThat(v.missingConcepts()).containsExactly("size");
    assertThat(v.reason()).contains("but size, a plain word");
  }

  @Test
  void aMissingEntityIsNeverAPlainWord() {
    var gaggia = new Concept("gaggia", "gaggia", List.of("gaggia"), true, Role.ENTITY);
    var pack =
        pack(List.of(gaggia, GRIND, DESCALE), List.of(), row(1, "note:a.md", "grind and descale"));

    assertThat(judge(pack, 1).verdict()).isEqualTo(Verdict.WEAK_EVIDENCE);
  }

  @Test
  void anEmptyPackIsNoEvidenceWithAFocusedRetryOfTheRequiredConceptsAndSynonyms() {
    var pack = pack(List.of(GRIND, DESCALE), List.of());

    JudgeVerdict v = judge(pack, 1);

    assertThat(v.verdict()).isEqualTo(Verdict.NO_EVIDENCE);
    assertThat(v.reason()).isEqualTo(pack.coverage().recallNote());
    assertThat(v.missingConcepts()).containsExactly("grind", "descale");
    assertThat(v.retryAction()).isEqualTo(RetryAction.FOCUSED_RETRY);
    assertThat(v.retryQuery()).isEqualTo("grind grinder setting descale decalcify");
  }

  @Test
  void noEvidenceWithAConceptAbsentFromTheCorpusHasNothingToRetry() {
    var pack = pack(List.of(GRIND, DESCALE), List.of("descale"));

    JudgeVerdict v = judge(pack, 1);

    assertThat(v.verdict()).isEqualTo(Verdict.NO_EVIDENCE);
    assertThat(v.retryAction()).isEqualTo(RetryAction.NONE);
    assertThat(v.reason()).contains("No retry: descale occurs nowhere in the corpus");
  }

  @Test
  void withoutARetrievalPassLeftTheActionIsAlwaysNone() {
    var weak = pack(CONCEPTS, List.of(), row(1, "note:a.md", "Niche Zero grind 15"));
    var empty = pack(List.of(GRIND, DESCALE), List.of());

    assertThat(judge(weak, 0).retryAction()).isEqualTo(RetryAction.NONE);
    assertThat(judge(weak, 0).reason()).contains("no retrieval pass left");
    assertThat(judge(empty, 0).retryAction()).isEqualTo(RetryAction.NONE);
  }

  @Test
  void relatedRowsCanFillAMissingConceptButNeverCountAsStrong() {
    var related =
        new EvidenceRow(
            2,
            "note:r.md",
            "item",
            "note",
            "R",
            null,
            "r.md",
            List.of(),
            null,
            null,
            null,
            "how to descale with soft water",
            "related",
            null,
            new RowRetrieval(List.of(), 0),
            List.of(),
            List.of(),
            List.of(),
            "note:a.md",
            EvidenceRow.LINKS_TO);
    var pack =
        pack(
            CONCEPTS,
            List.of(),
            row(1, "note:a.md", "Niche Zero grind 15"),
            row(2, "note:b.md", "Niche Zero grind 16"),
            related);

    JudgeVerdict v = judge(pack, 0);

    assertThat(v.missingConcepts()).isEmpty();
    assertThat(v.verdict()).isEqualTo(Verdict.ENOUGH_EVIDENCE);
    assertThat(v.reason()).contains("together");
  }

  // ---- hand-made packs

  private static JudgeVerdict judge(ResearchPack pack, int passesLeft) {
    return Judge.judge(new Judge.Input(pack, Set.of(), passesLeft, true));
  }

  static EvidenceRow row(int rank, String key, String excerpt) {
    return new EvidenceRow(
        rank,
        key,
        "item",
        "note",
        null,
        null,
        null,
        List.of(),
        null,
        null,
        null,
        excerpt,
        "raw",
        null,
        new RowRetrieval(List.of(), 0),
        List.of(),
        List.of(),
        List.of(),
        null,
        null);
  }

  private static EvidenceRow withSignal(EvidenceRow r, String signal) {
    var signals = new java.util.ArrayList<>(r.signals());
    signals.add(signal);
    return r.withEvidence(signals, r.matchedTerms(), r.missingTerms());
  }

  private static EvidenceRow tagOnly(EvidenceRow r) {
    return new EvidenceRow(
        r.rank(),
        r.sourceKey(),
        r.kind(),
        r.sourceType(),
        r.title(),
        r.url(),
        r.notePath(),
        r.userTags(),
        null,
        null,
        null,
        r.excerpt(),
        "exact_tag",
        null,
        r.retrieval(),
        r.signals(),
        List.of(),
        List.of(),
        null,
        null);
  }

  static ResearchPack pack(List<Concept> concepts, List<String> absent, EvidenceRow... rows) {
    var terms = new ArrayList<String>();
    concepts.forEach(c -> terms.add(c.preferred()));
    var plan =
        new QueryPlan(
            String.join(" ", terms),
            QueryFamily.FACT_LOOKUP,
            terms,
            List.of(),
            List.of(new QueryVariant(String.join(" ", terms), "main")),
            concepts,
            "deterministic",
            null,
            null,
            List.of(),
            List.of("bm25"),
            8,
            700,
            false,
            5,
            null,
            false,
            null);
    String note = rows.length == 0 ? "No evidence: nothing matched." : "Evidence is capped.";
    var coverage =
        new Coverage(
            rows.length, Map.of(), Map.of(), List.of(), 0, Map.of(), 0, 0, List.of(), absent, note);
    return new ResearchPack(
        ResearchPack.SCHEMA_VERSION,
        "question",
        ResearchPack.MODE_EVIDENCE_ONLY,
        plan,
        coverage,
        List.of(rows),
        List.of(),
        null,
        List.of());
  }
}
