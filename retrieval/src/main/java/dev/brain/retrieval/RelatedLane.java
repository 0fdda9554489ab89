package dev.brain.retrieval;

import dev.brain.index.CorpusRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The related lane: records linked with the top ranked rows. For each of the first {@value #SEEDS}
 * rows in rank order, the records it links to ({@code links_to}), then the records linking to it
 * ({@code linked_from}, by key); records already in the result are skipped. The filters apply to
 * related records too.
 */
final class RelatedLane {
  private RelatedLane() {}

  /** How many of the top rows have their links followed. */
  static final int SEEDS = 3;

  /**
   * A record linked with a ranked row.
   *
   * @param record the linked record
   * @param relatedTo the ranked row's key
   * @param relationship {@link EvidenceRow#LINKS_TO} or {@link EvidenceRow#LINKED_FROM}
   * @param seedScore the ranked row's fused score
   */
  record Link(CorpusRecord record, String relatedTo, String relationship, double seedScore) {}

  static List<Link> links(
      Backend.View view, List<EvidenceRow> ranked, SearchFilters filters, int limit)
      throws IOException {
    var out = new ArrayList<Link>();
    Set<String> seen = new HashSet<>();
    ranked.forEach(r -> seen.add(r.sourceKey()));
    List<EvidenceRow> seeds = ranked.subList(0, Math.min(SEEDS, ranked.size()));
    Map<String, CorpusRecord> seedRecords =
        view.load(seeds.stream().map(EvidenceRow::sourceKey).toList(), List.of()).records();
    for (EvidenceRow seed : seeds) {
      CorpusRecord seedRecord = seedRecords.get(seed.sourceKey());
      if (seedRecord == null) {
        continue;
      }
      double score = seed.retrieval().fusedScore();
      Map<String, CorpusRecord> targets = view.load(seedRecord.links(), List.of()).records();
      for (String key : seedRecord.links()) {
        CorpusRecord target = targets.get(key);
        if (target != null && seen.add(key) && passes(view, key, filters)) {
          out.add(new Link(target, seed.sourceKey(), EvidenceRow.LINKS_TO, score));
        }
      }
      for (CorpusRecord source : view.backlinks(seed.sourceKey(), filters)) {
        if (!source.key().equals(seed.sourceKey()) && seen.add(source.key())) {
          out.add(new Link(source, seed.sourceKey(), EvidenceRow.LINKED_FROM, score));
        }
      }
      if (out.size() >= limit) {
        break;
      }
    }
    return out.size() > limit ? out.subList(0, limit) : out;
  }

  private static boolean passes(Backend.View view, String key, SearchFilters filters)
      throws IOException {
    return filters.isEmpty() || view.passes(key, filters);
  }
}
