package dev.brain.research.pack;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.index.RecordDetail;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.QueryPlan;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.util.ArrayList;
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

  /** A focused retry's rows merged into {@code base}: see {@link RetryMerge}. */
  public static Merged retry(
      ResearchPack base,
      ResearchPack retry,
      String query,
      List<String> missingConcepts,
      int acceptLimit,
      ResearchOptions options) {
    return RetryMerge.merge(base, retry, query, missingConcepts, acceptLimit, options);
  }

  public static Merged expand(
      Retriever retriever, ResearchPack base, String lookup, int limit, ResearchOptions options)
      throws IOException {
    QueryPlan plan = base.queryPlan();
    List<Concept> required = plan.requiredConcepts();
    Set<String> inPack = MergedPacks.keys(base.evidence());
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
    QueryPlan merged =
        MergedPacks.withPlan(plan, plan.queryVariants(), includeRelated, limit, lanes);
    String recall = base.coverage().recallNote() + note;
    ResearchPack pack =
        MergedPacks.rebuild(base, merged, evidence, base.exactTagEvidence(), recall, options);
    var report =
        new MergeReport(
            MergeReport.RELATED_EXPANSION,
            null,
            lookup,
            MergedPacks.keyList(base.evidence()),
            MergedPacks.keyList(accepted),
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
    Set<String> inPack = MergedPacks.keys(base.evidence());
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
      if (verify && !MergedPacks.matchesAll(row, plan.requiredConcepts())) {
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
    ResearchPack pack =
        MergedPacks.rebuild(base, plan, evidence, base.exactTagEvidence(), note, options);
    var report =
        new MergeReport(
            action,
            null,
            null,
            MergedPacks.keyList(base.evidence()),
            MergedPacks.keyList(accepted),
            rejected);
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
}
