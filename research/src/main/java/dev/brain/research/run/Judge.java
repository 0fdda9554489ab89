package dev.brain.research.run;

import dev.brain.research.pack.ConceptMatch;
import dev.brain.research.pack.Coverage;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.Concept;
import dev.brain.research.run.JudgeVerdict.RetryAction;
import dev.brain.research.run.JudgeVerdict.Verdict;
import dev.brain.research.run.JudgeVerdict.WeakRow;
import dev.brain.retrieval.EvidenceRow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Decides whether a run's evidence answers the question, from the pack alone (plan, required
 * concepts, the top rows with their signals and matched terms, exact-tag evidence, coverage and its
 * recall note), so the runner needs no scoring details of its own:
 *
 * <ul>
 *   <li>{@code no_evidence}: the pack has no ranked row. A focused retry of the required concepts
 *       (with their synonyms) is proposed unless a required concept occurs nowhere in the corpus
 *       (then nothing can help) or that search already ran;
 *   <li>{@code enough_evidence}: the top rows together match every required concept, and at least
 *       one of them is strong (matches all required concepts, is not a partial match, was not found
 *       by its tag alone) or at least two are direct matches; or the only concept missing is one
 *       plain content word of a question with several required concepts and the best row is a
 *       direct match of at least half of them;
 *   <li>{@code weak_evidence}: anything else. The retry action is a focused retry for the missing
 *       concepts anchored on the concepts the strongest row matched (entities and tags first) when
 *       some missing concept exists in the corpus, else a related expansion from the strongest row.
 * </ul>
 *
 * A row's concepts are matched on its title, excerpt (the inspected window after inspection),
 * summary, path, headings, tags and the words retrieval matched.
 */
final class Judge {
  private Judge() {}

  /** The evidence role of a row found by its user tag alone. */
  private static final String EXACT_TAG_ROLE = "exact_tag";

  /** Rows the judge looks at. */
  static final int TOP_ROWS = 5;

  /** Synonyms of a missing concept added to a focused retry. */
  static final int RETRY_SYNONYMS = 2;

  /** Concepts of the strongest row added to a focused retry as anchors. */
  static final int ANCHORS = 2;

  /**
   * What the judge sees.
   *
   * @param pack the pack as it stands (top rows possibly carrying inspected windows)
   * @param queriesRun lower-cased search texts already run (a retry never repeats one)
   * @param passesLeft retrieval passes left in the budget (0: the action is always {@code none})
   * @param expansionAllowed whether a related expansion may add rows at all
   */
  record Input(
      ResearchPack pack, Set<String> queriesRun, int passesLeft, boolean expansionAllowed) {}

  static JudgeVerdict judge(Input in) {
    ResearchPack pack = in.pack();
    List<Concept> required = pack.queryPlan().requiredConcepts();
    List<EvidenceRow> ranked = pack.evidence().stream().filter(r -> !r.isRelated()).toList();
    if (ranked.isEmpty()) {
      return noEvidence(in, required);
    }
    List<EvidenceRow> top = ranked.subList(0, Math.min(TOP_ROWS, ranked.size()));
    Set<String> covered = new HashSet<>();
    var weak = new ArrayList<WeakRow>();
    int strong = 0;
    int direct = 0;
    for (EvidenceRow row : top) {
      List<String> missing = missing(required, ConceptMatch.matched(row, required));
      required.stream().map(Concept::key).filter(k -> !missing.contains(k)).forEach(covered::add);
      String why = weakness(row, missing);
      if (why == null) {
        strong++;
      } else {
        weak.add(new WeakRow(row.sourceKey(), why, row.relationship(), missing));
      }
      direct += ConceptMatch.isPartial(row) ? 0 : 1;
    }
    // Related rows (an expansion) can fill a missing concept, but never count as strong.
    for (EvidenceRow row : pack.evidence()) {
      if (row.isRelated()) {
        ConceptMatch.matched(row, required).forEach(c -> covered.add(c.key()));
      }
    }
    List<String> missing =
        required.stream().map(Concept::key).filter(k -> !covered.contains(k)).toList();
    if (missing.isEmpty() && (strong >= 1 || direct >= 2)) {
      String reason =
          strong >= 1
              ? strong + " of the top " + top.size() + " rows match every required concept"
              : "the top rows together match every required concept";
      return new JudgeVerdict(
          Verdict.ENOUGH_EVIDENCE, reason + ".", missing, weak, RetryAction.NONE, null, null);
    }
    if (onlyAPlainWordMissing(required, missing, top.get(0))) {
      String reason =
          "the best row is a direct match and the top rows match every required concept but "
              + missing.get(0)
              + ", a plain word of the question";
      return new JudgeVerdict(
          Verdict.ENOUGH_EVIDENCE, reason + ".", missing, weak, RetryAction.NONE, null, null);
    }
    String reason =
        missing.isEmpty()
            ? "the top rows cover the required concepts only through partial, tag-only or"
                + " semantic matches"
            : "no top row matches " + String.join(", ", missing);
    return weakAction(in, required, missing, top.get(0), weak, reason);
  }

  /**
   * Whether the one missing required concept is a plain content word ({@code size}, {@code causes})
   * of a question with at least two required concepts, and the best row is a direct match (not
   * partial, not by tag alone) of at least half of them. Natural questions carry such words that
   * the answering note need not repeat; a retry for one of them alone rarely finds anything
   * (measured on the sample probes).
   */
  private static boolean onlyAPlainWordMissing(
      List<Concept> required, List<String> missing, EvidenceRow best) {
    if (missing.size() != 1 || required.size() < 2 || ConceptMatch.isPartial(best)) {
      return false;
    }
    if (EXACT_TAG_ROLE.equals(best.evidenceRole())
        || ConceptMatch.matched(best, required).size() * 2 < required.size()) {
      return false;
    }
    return required.stream()
        .anyMatch(c -> c.key().equals(missing.get(0)) && c.role() == Concept.Role.SUBJECT);
  }

  private static JudgeVerdict noEvidence(Input in, List<Concept> required) {
    Coverage coverage = in.pack().coverage();
    List<String> missing = required.stream().map(Concept::key).toList();
    String reason = coverage.recallNote();
    if (in.passesLeft() <= 0) {
      return verdict(Verdict.NO_EVIDENCE, reason, missing, List.of(), null, null);
    }
    if (!coverage.absentConcepts().isEmpty()) {
      return verdict(
          Verdict.NO_EVIDENCE,
          reason
              + " No retry: "
              + String.join(", ", coverage.absentConcepts())
              + " occurs nowhere in the corpus.",
          missing,
          List.of(),
          null,
          null);
    }
    String query = focusedQuery(required, List.of(), in.queriesRun());
    return verdict(Verdict.NO_EVIDENCE, reason, missing, List.of(), query, null);
  }

  private static JudgeVerdict weakAction(
      Input in,
      List<Concept> required,
      List<String> missing,
      EvidenceRow strongest,
      List<WeakRow> weak,
      String reason) {
    if (in.passesLeft() <= 0) {
      return verdict(
          Verdict.WEAK_EVIDENCE, reason + "; no retrieval pass left.", missing, weak, null, null);
    }
    Set<String> absent = new HashSet<>(in.pack().coverage().absentConcepts());
    List<Concept> retryable =
        required.stream()
            .filter(c -> missing.contains(c.key()) && !absent.contains(c.key()))
            .toList();
    if (!retryable.isEmpty()) {
      List<Concept> anchors = anchors(required, ConceptMatch.matched(strongest, required));
      String query = focusedQuery(retryable, anchors, in.queriesRun());
      if (query != null) {
        return verdict(Verdict.WEAK_EVIDENCE, reason + ".", missing, weak, query, null);
      }
    }
    if (in.expansionAllowed()) {
      return verdict(
          Verdict.WEAK_EVIDENCE, reason + ".", missing, weak, null, strongest.sourceKey());
    }
    return verdict(Verdict.WEAK_EVIDENCE, reason + ".", missing, weak, null, null);
  }

  private static JudgeVerdict verdict(
      Verdict verdict,
      String reason,
      List<String> missing,
      List<WeakRow> weak,
      String retryQuery,
      String expansionLookup) {
    RetryAction action =
        retryQuery != null
            ? RetryAction.FOCUSED_RETRY
            : expansionLookup != null ? RetryAction.RELATED_EXPANSION : RetryAction.NONE;
    return new JudgeVerdict(verdict, reason, missing, weak, action, retryQuery, expansionLookup);
  }

  /** Why a top row is weak, or {@code null} when it is strong. */
  private static String weakness(EvidenceRow row, List<String> missing) {
    var why = new ArrayList<String>();
    if (ConceptMatch.isPartial(row)) {
      why.add("matches less than half of the required concepts");
    }
    if (EXACT_TAG_ROLE.equals(row.evidenceRole())) {
      why.add("found by its user tag alone");
    }
    if (row.signals().contains("strong_semantic")) {
      why.add("a semantic match with little word overlap");
    }
    if (row.isRelated()) {
      why.add("a related row, not found by the search");
    }
    if (!missing.isEmpty()) {
      why.add("misses " + String.join(", ", missing));
    }
    return why.isEmpty() ? null : String.join("; ", why);
  }

  private static List<String> missing(List<Concept> required, List<Concept> matched) {
    return required.stream().filter(c -> !matched.contains(c)).map(Concept::key).toList();
  }

  /** Up to {@value #ANCHORS} matched concepts: entities and tags first, then in plan order. */
  private static List<Concept> anchors(List<Concept> required, List<Concept> matched) {
    var out = new ArrayList<Concept>();
    for (Concept c : matched) {
      if ((c.role() == Concept.Role.ENTITY || c.role() == Concept.Role.TAG)
          && out.size() < ANCHORS) {
        out.add(c);
      }
    }
    for (Concept c : required) {
      if (matched.contains(c) && !out.contains(c) && out.size() < ANCHORS) {
        out.add(c);
      }
    }
    return out;
  }

  /**
   * The focused retry text: each concept's preferred form and up to {@value #RETRY_SYNONYMS}
   * synonyms, then the anchors' preferred forms; {@code null} when empty or already searched.
   */
  static String focusedQuery(List<Concept> concepts, List<Concept> anchors, Set<String> run) {
    var words = new LinkedHashSet<String>();
    for (Concept c : concepts) {
      words.add(c.preferred());
      c.terms().stream()
          .filter(t -> !t.equalsIgnoreCase(c.preferred()))
          .limit(RETRY_SYNONYMS)
          .forEach(words::add);
    }
    anchors.forEach(a -> words.add(a.preferred()));
    String query = String.join(" ", words).strip();
    if (query.isEmpty() || run.contains(query.toLowerCase(Locale.ROOT))) {
      return null;
    }
    return query;
  }
}
