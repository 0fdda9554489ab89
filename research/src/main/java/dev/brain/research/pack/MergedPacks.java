package dev.brain.research.pack;

import dev.brain.research.plan.Concept;
import dev.brain.research.plan.QueryPlan;
import dev.brain.research.plan.QueryVariant;
import dev.brain.retrieval.EvidenceRow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A pack rebuilt around merged rows for {@link EvidenceMerge}: rows renumbered, coverage counts and
 * missing concepts recomputed, the plan with its new variants or lanes, the next steps again.
 */
final class MergedPacks {
  private MergedPacks() {}

  static boolean matchesAll(EvidenceRow row, List<Concept> required) {
    return ConceptMatch.matched(row, required).size() == required.size();
  }

  static ResearchPack rebuild(
      ResearchPack base,
      QueryPlan plan,
      List<EvidenceRow> rows,
      List<EvidenceRow> exactTag,
      String note,
      ResearchOptions options) {
    var evidence = new ArrayList<EvidenceRow>();
    for (EvidenceRow row : rows) {
      evidence.add(RunRows.renumber(row, evidence.size() + 1));
    }
    List<Concept> required = plan.requiredConcepts();
    Set<String> covered = new HashSet<>();
    evidence.forEach(r -> ConceptMatch.matched(r, required).forEach(c -> covered.add(c.key())));
    Coverage c = base.coverage();
    var coverage =
        new Coverage(
            evidence.size(),
            CoverageBuilder.counts(evidence, EvidenceRow::kind),
            CoverageBuilder.counts(evidence, EvidenceRow::sourceType),
            CoverageBuilder.topTags(evidence),
            c.exactTagMatches(),
            c.textMatches(),
            c.topicNodeCount(),
            c.topicEdgeCount(),
            evidence.isEmpty()
                ? c.missingConcepts()
                : required.stream().map(Concept::key).filter(k -> !covered.contains(k)).toList(),
            c.absentConcepts(),
            c.commonConcepts(),
            note);
    return new ResearchPack(
        base.schemaVersion(),
        base.question(),
        base.mode(),
        plan,
        coverage,
        evidence,
        exactTag,
        base.topicBrief(),
        CoverageBuilder.nextSteps(plan, evidence, options, nearest(base)));
  }

  /** The base pack's nearest-in-meaning follow-up, carried over when the merge found nothing. */
  private static NextStep nearest(ResearchPack base) {
    return base.nextSteps().stream()
        .filter(s -> NextStep.NEAREST_BY_MEANING.equals(s.action()))
        .findFirst()
        .orElse(null);
  }

  static QueryPlan withPlan(
      QueryPlan p,
      List<QueryVariant> variants,
      boolean includeRelated,
      int relatedLimit,
      List<String> lanes) {
    return new QueryPlan(
        p.textQuery(),
        p.queryFamily(),
        p.queryTerms(),
        p.tagQueries(),
        variants,
        p.concepts(),
        p.planner(),
        p.plannerModel(),
        p.plannerError(),
        p.sourceTypes(),
        lanes == null ? p.retrievalLanes() : lanes,
        p.limit(),
        p.maxCharsPerDoc(),
        includeRelated,
        relatedLimit,
        p.topic(),
        p.includeTopicBrief(),
        p.followUp());
  }

  static Set<String> keys(List<EvidenceRow> rows) {
    var out = new HashSet<String>();
    rows.forEach(r -> out.add(r.sourceKey()));
    return out;
  }

  static List<String> keyList(List<EvidenceRow> rows) {
    return rows.stream().map(EvidenceRow::sourceKey).toList();
  }
}
