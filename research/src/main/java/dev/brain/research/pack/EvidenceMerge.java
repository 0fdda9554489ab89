package dev.brain.research.pack;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.index.RecordDetail;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.QueryPlan;
import dev.brain.research.plan.QueryVariant;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Merges rows from outside the first retrieval pass into a pack, recording every decision in a
 * {@link MergeReport}. The pack's rows are always preserved; new rows are judged against the
 * original plan's required concepts, never the extra search's own:
 *
 * <ul>
 *   <li>a focused retry's row is accepted when it matches at least one of the missing concepts and
 *       at least half of the required concepts; rows matching every required concept then move
 *       ahead of rows that do not (otherwise rank order is kept, pack rows first);
 *   <li>a related expansion's row (a link or backlink of the strongest row) is accepted when it
 *       matches at least one required concept; it joins the related rows at the end;
 *   <li>pinned records are always added (after the ranked rows, before related rows).
 * </ul>
 *
 * Coverage counts, missing concepts and the recall note are recomputed for the merged rows.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class EvidenceMerge {
  private EvidenceMerge() {}

  /** A merged pack and its report. */
  public record Merged(ResearchPack pack, MergeReport report) {}

  public static Merged retry(
      ResearchPack base,
      ResearchPack retry,
      String query,
      List<String> missingConcepts,
      int acceptLimit,
      ResearchOptions options) {
    QueryPlan plan = base.queryPlan();
    List<Concept> required = plan.requiredConcepts();
    Set<String> inPack = keys(base.evidence());
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
    QueryPlan merged = withPlan(plan, variants, plan.includeRelated(), plan.relatedLimit(), null);
    String note = retryNote(base, query, accepted.size());
    List<EvidenceRow> exactTag =
        base.exactTagEvidence().isEmpty() ? retry.exactTagEvidence() : base.exactTagEvidence();
    ResearchPack pack = rebuild(base, merged, evidence, exactTag, note, options);
    var report =
        new MergeReport(
            MergeReport.FOCUSED_RETRY,
            query,
            null,
            keyList(base.evidence()),
            keyList(accepted),
            rejected);
    return new Merged(pack, report);
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
    ranked.sort(Comparator.comparing((EvidenceRow r) -> !matchesAll(r, required)));
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

  public static Merged expand(
      Retriever retriever, ResearchPack base, String lookup, int limit, ResearchOptions options)
      throws IOException {
    QueryPlan plan = base.queryPlan();
    List<Concept> required = plan.requiredConcepts();
    Set<String> inPack = keys(base.evidence());
    var accepted = new ArrayList<EvidenceRow>();
    var rejected = new ArrayList<MergeReport.Rejected>();
    Optional<RecordDetail> seed = retriever.get(lookup);
    Map<String, String> links = new LinkedHashMap<>();
    seed.ifPresent(
        d -> {
          d.record().links().forEach(k -> links.putIfAbsent(k, EvidenceRow.LINKS_TO));
          d.backlinks().forEach(k -> links.putIfAbsent(k, EvidenceRow.LINKED_FROM));
        });
    int rank = base.evidence().size();
    for (var link : links.entrySet()) {
      String key = link.getKey();
      if (inPack.contains(key)) {
        rejected.add(new MergeReport.Rejected(key, "already in the pack"));
        continue;
      }
      Optional<RecordDetail> detail = retriever.get(key);
      if (detail.isEmpty()) {
        rejected.add(new MergeReport.Rejected(key, "not in the index"));
        continue;
      }
      String type = detail.get().record().sourceType();
      if (!options.sourceTypes().isEmpty() && !options.sourceTypes().contains(type)) {
        rejected.add(new MergeReport.Rejected(key, "source type " + type + " was not searched"));
        continue;
      }
      EvidenceRow row =
          RunRows.fromRecord(
              detail.get(),
              rank + accepted.size() + 1,
              "related",
              plan,
              options.maxCharsPerDoc(),
              List.of("related:" + link.getValue(), RunRows.EXPANSION),
              lookup,
              link.getValue());
      if (!required.isEmpty() && ConceptMatch.matched(row, required).isEmpty()) {
        rejected.add(new MergeReport.Rejected(key, "matches no required concept"));
      } else if (accepted.size() >= limit) {
        rejected.add(
            new MergeReport.Rejected(key, "over the expansion's limit of " + limit + " rows"));
      } else {
        accepted.add(row);
        inPack.add(key);
      }
    }
    String note =
        seed.isEmpty()
            ? " The record " + lookup + " to expand from is not in the index."
            : " The runner followed the links of "
                + lookup
                + ": "
                + accepted.size()
                + " related records added.";
    return withRelated(base, accepted, !accepted.isEmpty(), limit, note, lookup, rejected, options);
  }

  /**
   * {@code base} with {@code accepted} related rows after its evidence, the related lane in its
   * plan ({@code includeRelated} and {@code limit} as given), {@code note} after its recall note,
   * and the merge report of a related expansion from {@code lookup} (null: the evidence rows).
   */
  private static Merged withRelated(
      ResearchPack base,
      List<EvidenceRow> accepted,
      boolean includeRelated,
      int limit,
      String note,
      String lookup,
      List<MergeReport.Rejected> rejected,
      ResearchOptions options) {
    QueryPlan plan = base.queryPlan();
    var evidence = new ArrayList<>(base.evidence());
    evidence.addAll(accepted);
    var lanes = new ArrayList<>(plan.retrievalLanes());
    if (!lanes.contains("related")) {
      lanes.add("related");
    }
    QueryPlan merged = withPlan(plan, plan.queryVariants(), includeRelated, limit, lanes);
    String recall = base.coverage().recallNote() + note;
    ResearchPack pack = rebuild(base, merged, evidence, base.exactTagEvidence(), recall, options);
    var report =
        new MergeReport(
            MergeReport.RELATED_EXPANSION,
            null,
            lookup,
            keyList(base.evidence()),
            keyList(accepted),
            rejected);
    return new Merged(pack, report);
  }

  /**
   * The related notes a run's request asked for, added after the judge: the link neighbours of the
   * evidence rows (as a pack with {@code include_related} takes them), labelled related and after
   * the question's own evidence, whether or not they match the question's concepts (they are its
   * neighbours, not its evidence).
   */
  public static Merged related(Retriever retriever, ResearchPack base, ResearchOptions options)
      throws IOException {
    List<EvidenceRow> accepted =
        PackBuilder.related(retriever, base.queryPlan().textQuery(), options, base.evidence());
    String note =
        " Related notes asked for: "
            + accepted.size()
            + " linked records added after the evidence.";
    return withRelated(
        base, accepted, true, options.relatedLimit(), note, null, List.of(), options);
  }

  public static Merged pinned(
      Retriever retriever, ResearchPack base, List<String> pinnedKeys, ResearchOptions options)
      throws IOException {
    return fromKeys(
        retriever,
        base,
        pinnedKeys,
        options,
        MergeReport.PINNED,
        false,
        " records the user pinned were added.");
  }

  /** Most rows an earlier turn's evidence adds to a follow-up's pack. */
  public static final int MAX_EARLIER_TURN_ROWS = 4;

  /** Most earlier-turn keys read again for a follow-up (the first ones, newest turn first). */
  public static final int MAX_EARLIER_TURN_KEYS = 24;

  /**
   * The pack with rows of an earlier turn's evidence added as candidates of a follow-up: each is
   * read again from the index, windowed on this question's concepts, and kept only when it matches
   * every required concept of this question (at most {@value #MAX_EARLIER_TURN_ROWS} rows of the
   * first {@value #MAX_EARLIER_TURN_KEYS} keys); an earlier turn is never proof on its own. Added
   * rows carry the signal {@value MergeReport#EARLIER_TURN}.
   */
  public static Merged earlierTurns(
      Retriever retriever, ResearchPack base, List<String> keys, ResearchOptions options)
      throws IOException {
    return fromKeys(
        retriever,
        base,
        keys.subList(0, Math.min(keys.size(), MAX_EARLIER_TURN_KEYS)),
        options,
        MergeReport.EARLIER_TURN,
        true,
        " rows of earlier turns' evidence match this question too.");
  }

  private static Merged fromKeys(
      Retriever retriever,
      ResearchPack base,
      List<String> keys,
      ResearchOptions options,
      String action,
      boolean verify,
      String added)
      throws IOException {
    QueryPlan plan = base.queryPlan();
    Set<String> inPack = keys(base.evidence());
    var accepted = new ArrayList<EvidenceRow>();
    var rejected = new ArrayList<MergeReport.Rejected>();
    for (String key : keys) {
      if (inPack.contains(key)) {
        rejected.add(new MergeReport.Rejected(key, "already in the pack"));
        continue;
      }
      Optional<RecordDetail> detail = retriever.get(key);
      if (detail.isEmpty()) {
        rejected.add(new MergeReport.Rejected(key, "not in the index"));
        continue;
      }
      boolean pinned = action.equals(MergeReport.PINNED);
      EvidenceRow row =
          RunRows.fromRecord(
              detail.get(),
              0,
              role(detail.get()),
              plan,
              options.maxCharsPerDoc(),
              List.of(action),
              null,
              pinned ? RunRows.PINNED : null);
      if (verify && !matchesAll(row, plan.requiredConcepts())) {
        rejected.add(
            new MergeReport.Rejected(
                key, "does not mention every required concept of this" + " question"));
        continue;
      }
      if (verify && accepted.size() >= MAX_EARLIER_TURN_ROWS) {
        rejected.add(new MergeReport.Rejected(key, "over the limit of earlier-turn rows"));
        continue;
      }
      accepted.add(row);
      inPack.add(key);
    }
    var evidence = new ArrayList<EvidenceRow>();
    base.evidence().stream().filter(r -> !r.isRelated()).forEach(evidence::add);
    evidence.addAll(accepted);
    base.evidence().stream().filter(EvidenceRow::isRelated).forEach(evidence::add);
    String note =
        accepted.isEmpty()
            ? base.coverage().recallNote()
            : base.coverage().recallNote() + " " + accepted.size() + added;
    ResearchPack pack = rebuild(base, plan, evidence, base.exactTagEvidence(), note, options);
    var report =
        new MergeReport(action, null, null, keyList(base.evidence()), keyList(accepted), rejected);
    return new Merged(pack, report);
  }

  /** The evidence role of a whole record: its text chunks' role ({@code raw}, ...). */
  private static String role(RecordDetail detail) {
    return detail.chunks().stream()
        .map(Chunk::role)
        .filter(r -> r != ChunkRole.SUMMARY && r != ChunkRole.BRAIN_WRITTEN)
        .findFirst()
        .map(ChunkRole::wireName)
        .orElse(ChunkRole.RAW.wireName());
  }

  private static boolean matchesAll(EvidenceRow row, List<Concept> required) {
    return ConceptMatch.matched(row, required).size() == required.size();
  }

  private static ResearchPack rebuild(
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

  private static QueryPlan withPlan(
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

  private static Set<String> keys(List<EvidenceRow> rows) {
    var out = new HashSet<String>();
    rows.forEach(r -> out.add(r.sourceKey()));
    return out;
  }

  private static List<String> keyList(List<EvidenceRow> rows) {
    return rows.stream().map(EvidenceRow::sourceKey).toList();
  }
}
