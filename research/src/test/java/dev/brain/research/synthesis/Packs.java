package dev.brain.research.synthesis;

import dev.brain.research.pack.Coverage;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.pack.TopicBrief;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.QueryAnalyzer;
import dev.brain.research.plan.QueryPlan;
import dev.brain.research.plan.Strategy;
import dev.brain.retrieval.ChunkRef;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.LaneScore;
import dev.brain.retrieval.RowRetrieval;
import java.util.List;
import java.util.Map;

/** Small hand-made packs and rows for tests that need no index. */
final class Packs {
  private Packs() {}

  /** A raw note row with an excerpt of {@code text}. */
  static EvidenceRow note(int rank, String path, String text, String... tags) {
    return row(rank, "note:" + path, "item", "note", "raw", text, List.of(tags), null);
  }

  /** A raw source row (a PDF) with an excerpt of {@code text}. */
  static EvidenceRow pdf(int rank, String hash, String text) {
    return row(rank, "src:" + hash, "source", "pdf", "raw", text, List.of(), null);
  }

  /** A related row linked from {@code relatedTo}. */
  static EvidenceRow related(int rank, String path, String text, String relatedTo) {
    return row(rank, "note:" + path, "item", "note", "related", text, List.of(), relatedTo);
  }

  /**
   * The same row, but the pack holds only {@code excerpt} of it: its one chunk spans the whole of
   * {@code raw} (the record's stored text), which the synthesizer reads through its sources.
   */
  static EvidenceRow stored(EvidenceRow row, String raw, String excerpt) {
    var chunk =
        new ChunkRef(
            List.of(row.sourceKey() + "#0"),
            List.of(0),
            "raw",
            List.of(),
            0,
            raw.length(),
            List.of(new ChunkRef.Span(0, 0, 0, raw.length())));
    return new EvidenceRow(
        row.rank(),
        row.sourceKey(),
        row.kind(),
        row.sourceType(),
        row.title(),
        row.url(),
        row.notePath(),
        row.userTags(),
        row.createdAt(),
        row.publishedAt(),
        row.summary(),
        excerpt,
        row.evidenceRole(),
        chunk,
        row.retrieval(),
        row.signals(),
        row.matchedTerms(),
        row.missingTerms(),
        row.relatedTo(),
        row.relationship());
  }

  /** A row whose excerpt is {@code chars} long. */
  static EvidenceRow sized(int rank, String path, int chars) {
    return note(rank, path, filler(chars));
  }

  /** Words to the given length. */
  static String filler(int chars) {
    var b = new StringBuilder();
    while (b.length() < chars) {
      b.append("lorem ipsum ");
    }
    return b.substring(0, chars);
  }

  static EvidenceRow row(
      int rank,
      String key,
      String kind,
      String sourceType,
      String role,
      String text,
      List<String> tags,
      String relatedTo) {
    String title = key.substring(key.indexOf(':') + 1).replace(".md", "");
    var chunk =
        new ChunkRef(
            List.of(key + "#0"), List.of(0), "raw", List.of(), 0, text.length(), List.of());
    var retrieval =
        new RowRetrieval(
            List.of(new LaneScore(Lane.BM25, rank, 10.0 / rank, 1.0 / (60 + rank))),
            1.0 / (60 + rank));
    return new EvidenceRow(
        rank,
        key,
        kind,
        sourceType,
        title,
        null,
        key.startsWith("note:") ? key.substring(5) : null,
        tags,
        "2024-03-01T00:00:00Z",
        null,
        null,
        text,
        role,
        chunk,
        retrieval,
        List.of(),
        List.of(),
        List.of(),
        relatedTo,
        relatedTo == null ? null : EvidenceRow.LINKS_TO);
  }

  /** A pack of these rows for the question, planned deterministically. */
  static ResearchPack pack(String question, List<EvidenceRow> evidence) {
    return pack(question, evidence, List.of(), null);
  }

  static ResearchPack pack(
      String question, List<EvidenceRow> evidence, List<EvidenceRow> exactTag, TopicBrief brief) {
    Strategy s = QueryAnalyzer.analyze(question, false);
    var plan =
        new QueryPlan(
            s.textQuery(),
            s.family(),
            s.queryTerms(),
            s.tagQueries(),
            s.variants().stream().map(Strategy.Variant::wire).toList(),
            s.concepts(),
            QueryPlan.DETERMINISTIC,
            null,
            null,
            List.of(),
            List.of("bm25", "exact_tag"),
            8,
            700,
            false,
            5,
            s.topic(),
            brief != null,
            null);
    var coverage =
        new Coverage(
            evidence.size(),
            Map.of(),
            Map.of(),
            List.of(),
            exactTag.size(),
            Map.of("item", evidence.size(), "source", 0),
            0,
            0,
            List.of(),
            evidence.isEmpty() ? s.required().stream().map(Concept::key).toList() : List.of(),
            evidence.isEmpty() ? "No evidence." : "Evidence is a capped working set.");
    return new ResearchPack(
        ResearchPack.SCHEMA_VERSION,
        question,
        brief == null
            ? ResearchPack.MODE_EVIDENCE_ONLY
            : ResearchPack.MODE_TOPIC_BRIEF_AND_EVIDENCE,
        plan,
        coverage,
        evidence,
        exactTag,
        brief,
        List.of());
  }

  /** {@code pack} with {@code keys} reported as concepts that occur nowhere in the corpus. */
  static ResearchPack absent(ResearchPack pack, String... keys) {
    Coverage c = pack.coverage();
    var coverage =
        new Coverage(
            c.evidenceCount(),
            c.byKind(),
            c.bySourceType(),
            c.topUserTags(),
            c.exactTagMatches(),
            c.textMatches(),
            c.topicNodeCount(),
            c.topicEdgeCount(),
            c.missingConcepts(),
            List.of(keys),
            c.recallNote());
    return new ResearchPack(
        pack.schemaVersion(),
        pack.question(),
        pack.mode(),
        pack.queryPlan(),
        coverage,
        pack.evidence(),
        pack.exactTagEvidence(),
        pack.topicBrief(),
        pack.nextSteps());
  }

  /** {@code pack} with {@code keys} reported as concepts common across the corpus. */
  static ResearchPack common(ResearchPack pack, String... keys) {
    Coverage c = pack.coverage();
    var coverage =
        new Coverage(
            c.evidenceCount(),
            c.byKind(),
            c.bySourceType(),
            c.topUserTags(),
            c.exactTagMatches(),
            c.textMatches(),
            c.topicNodeCount(),
            c.topicEdgeCount(),
            c.missingConcepts(),
            c.absentConcepts(),
            List.of(keys),
            c.recallNote());
    return new ResearchPack(
        pack.schemaVersion(),
        pack.question(),
        pack.mode(),
        pack.queryPlan(),
        coverage,
        pack.evidence(),
        pack.exactTagEvidence(),
        pack.topicBrief(),
        pack.nextSteps());
  }

  /** A topic brief with the given summary. */
  static TopicBrief brief(String summary) {
    return new TopicBrief(
        "coffee", List.of(), 8, 5, summary, List.of(), List.of(), List.of(), List.of());
  }
}
