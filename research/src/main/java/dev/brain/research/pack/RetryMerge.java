package dev.brain.research.pack;

import dev.brain.research.plan.Concept;
import dev.brain.research.plan.QueryPlan;
import dev.brain.research.plan.QueryVariant;
import dev.brain.retrieval.EvidenceRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * A focused retry's rows merged into a pack for {@link EvidenceMerge#retry}, judged against the
 * original plan's required concepts; rows matching every one of them move ahead.
 */
final class RetryMerge {
  private RetryMerge() {}

  /**
   * {@code base} with the focused retry's rows it accepts: each matches at least one of the missing
   * concepts and at least half of the required ones, at most {@code acceptLimit} of them.
   */
  static EvidenceMerge.Merged merge(
      ResearchPack base,
      ResearchPack retry,
      String query,
      List<String> missingConcepts,
      int acceptLimit,
      ResearchOptions options) {
    QueryPlan plan = base.queryPlan();
    List<Concept> required = plan.requiredConcepts();
    Set<String> inPack = MergedPacks.keys(base.evidence());
    var accepted = new ArrayList<EvidenceRow>();
    var rejected = new ArrayList<MergeReport.Rejected>();
    for (EvidenceRow candidate : retry.evidence()) {
      String key = candidate.sourceKey();
      if (inPack.contains(key)) {
        rejected.add(new MergeReport.Rejected(key, "already in the pack"));
        continue;
      }
      EvidenceRow row = RunRows.resignal(candidate, plan, RunRows.FOCUSED_RETRY);
      List<String> matched =
          ConceptMatch.matched(row, required).stream().map(Concept::key).toList();
      String why = retryRejection(matched, missingConcepts, required, accepted.size(), acceptLimit);
      if (why != null) {
        rejected.add(new MergeReport.Rejected(key, why));
      } else {
        accepted.add(row);
        inPack.add(key);
      }
    }
    List<EvidenceRow> evidence = retryEvidence(base, accepted, required);
    var variants = new ArrayList<>(plan.queryVariants());
    if (variants.size() < QueryPlan.MAX_VARIANTS) {
      variants.add(
          new QueryVariant(
              query, "focused retry by the judge: missing " + String.join(", ", missingConcepts)));
    }
    QueryPlan merged =
        MergedPacks.withPlan(plan, variants, plan.includeRelated(), plan.relatedLimit(), null);
    String note = retryNote(base, query, accepted.size());
    List<EvidenceRow> exactTag =
        base.exactTagEvidence().isEmpty() ? retry.exactTagEvidence() : base.exactTagEvidence();
    ResearchPack pack = MergedPacks.rebuild(base, merged, evidence, exactTag, note, options);
    var report =
        new MergeReport(
            MergeReport.FOCUSED_RETRY,
            query,
            null,
            MergedPacks.keyList(base.evidence()),
            MergedPacks.keyList(accepted),
            rejected);
    return new EvidenceMerge.Merged(pack, report);
  }

  /** Why a focused retry's row is not taken, or {@code null} when it is. */
  private static String retryRejection(
      List<String> matched,
      List<String> missingConcepts,
      List<Concept> required,
      int accepted,
      int acceptLimit) {
    if (matched.stream().noneMatch(missingConcepts::contains)) {
      return "matches none of the missing concepts (" + String.join(", ", missingConcepts) + ")";
    }
    if (matched.size() * 2 < required.size()) {
      return "matches fewer than half of the required concepts";
    }
    if (accepted >= acceptLimit) {
      return "over the retry's limit of " + acceptLimit + " new rows";
    }
    return null;
  }

  /**
   * The pack's ranked rows and the accepted ones, rows with every required concept first (stable:
   * otherwise pack order, then retry order), then the pack's related rows.
   */
  private static List<EvidenceRow> retryEvidence(
      ResearchPack base, List<EvidenceRow> accepted, List<Concept> required) {
    var ranked = new ArrayList<EvidenceRow>();
    base.evidence().stream().filter(r -> !r.isRelated()).forEach(ranked::add);
    ranked.addAll(accepted);
    ranked.sort(Comparator.comparing((EvidenceRow r) -> !MergedPacks.matchesAll(r, required)));
    var evidence = new ArrayList<>(ranked);
    base.evidence().stream().filter(EvidenceRow::isRelated).forEach(evidence::add);
    return evidence;
  }

  /** The recall note of a pack after a focused retry that added {@code added} records. */
  private static String retryNote(ResearchPack base, String query, int added) {
    return base.hasEvidence()
        ? base.coverage().recallNote()
            + " A focused retry (\""
            + query
            + "\") added "
            + added
            + " records."
        : added == 0
            ? base.coverage().recallNote()
                + " A focused retry (\""
                + query
                + "\") found nothing that counts."
            : "Evidence is a capped working set, not the full corpus: the main search found"
                + " nothing that counts; a focused retry (\""
                + query
                + "\") found "
                + added
                + " records.";
  }
}
