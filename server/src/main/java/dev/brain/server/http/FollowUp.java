package dev.brain.server.http;

import dev.brain.index.BrainIndex;
import dev.brain.index.CorpusRecord;
import dev.brain.research.ResearchPack;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.RowRetrieval;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Pinned evidence for {@code POST /api/research} and evidence-only runs: the records the user
 * pinned join the evidence (the question's earlier questions go through {@link
 * dev.brain.research.ChatContinuity#retrievalQuestion}). Earlier answers play no part. ({@code
 * /run} leaves this to the research runner's own continuity.)
 */
// TODO: use the research module's pinned-evidence merge once it is public, so both agree exactly.
final class FollowUp {
  /** {@link EvidenceRow#relationship()} and signal of a row the user pinned. */
  static final String PINNED = "pinned";

  private FollowUp() {}

  /**
   * What pinning did.
   *
   * @param pack the pack with the pinned rows appended
   * @param added keys appended as new rows
   * @param missing keys the index no longer holds
   */
  record Pinned(ResearchPack pack, List<String> added, List<String> missing) {}

  /**
   * The pack with a row for every pinned key it does not hold yet, after its own rows. Pinned rows
   * carry the record's raw text (trimmed to {@code maxChars}) with role {@code raw}, relationship
   * {@code pinned} and no lane scores: they were chosen by the user, not ranked.
   */
  static Pinned withPinned(ResearchPack pack, List<String> keys, BrainIndex index, int maxChars)
      throws IOException {
    if (keys.isEmpty()) {
      return new Pinned(pack, List.of(), List.of());
    }
    Set<String> present = new HashSet<>();
    pack.evidence().forEach(r -> present.add(r.sourceKey()));
    var rows = new ArrayList<>(pack.evidence());
    var added = new ArrayList<String>();
    var missing = new ArrayList<String>();
    for (String key : keys) {
      if (key == null || key.isBlank() || !present.add(key.strip())) {
        continue;
      }
      var detail = index.get(key.strip());
      if (detail.isEmpty()) {
        missing.add(key.strip());
        continue;
      }
      rows.add(row(rows.size() + 1, detail.get().record(), maxChars));
      added.add(key.strip());
    }
    var out =
        new ResearchPack(
            pack.schemaVersion(),
            pack.question(),
            pack.mode(),
            pack.queryPlan(),
            pack.coverage(),
            rows,
            pack.exactTagEvidence(),
            pack.topicBrief(),
            pack.nextSteps());
    return new Pinned(out, added, missing);
  }

  private static EvidenceRow row(int rank, CorpusRecord r, int maxChars) {
    return new EvidenceRow(
        rank,
        r.key(),
        r.kind(),
        r.sourceType(),
        r.title(),
        r.url(),
        r.path(),
        r.tags(),
        r.createdAt() == null ? null : r.createdAt().toString(),
        r.publishedAt() == null ? null : r.publishedAt().toString(),
        r.summary(),
        excerpt(r.text(), maxChars),
        "raw",
        null,
        new RowRetrieval(List.of(), 0),
        List.of(PINNED),
        List.of(),
        List.of(),
        null,
        PINNED);
  }

  static String excerpt(String text, int maxChars) {
    String flat = text == null ? "" : text.replaceAll("\\s+", " ").strip();
    if (flat.length() <= maxChars) {
      return flat;
    }
    int cut = flat.lastIndexOf(' ', maxChars - 1);
    return flat.substring(0, cut > maxChars / 2 ? cut : maxChars - 1) + "…";
  }
}
