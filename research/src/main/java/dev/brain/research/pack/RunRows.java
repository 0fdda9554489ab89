package dev.brain.research.pack;

import dev.brain.chunking.MarkdownText;
import dev.brain.index.CorpusRecord;
import dev.brain.index.RecordDetail;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.QueryPlan;
import dev.brain.research.plan.Words;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.LaneScore;
import dev.brain.retrieval.RowRetrieval;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Evidence rows the runner rewrites or builds itself: a row with an inspected window as its
 * excerpt, and rows read straight from the index (related expansion, pinned evidence). The concept
 * signals ({@code concepts:m/r}, {@code missing_concept:<key>}, {@code all_required_concepts}) and
 * matched/missing terms are recomputed against the run's plan so a row always explains itself.
 */
final class RunRows {
  private RunRows() {}

  /** Signal of a row whose excerpt is an inspected window. */
  static final String INSPECTED = "inspected";

  /** Signal of a row the user pinned in a chat. */
  static final String PINNED = "pinned";

  /** Signal of a row a focused retry added. */
  static final String FOCUSED_RETRY = "focused_retry";

  /** Signal of a row a related expansion added. */
  static final String EXPANSION = "related_expansion";

  /** {@code row} with another excerpt and its concept signals recomputed, plus {@code extra}. */
  static EvidenceRow withExcerpt(EvidenceRow row, String excerpt, QueryPlan plan, String extra) {
    return resignal(row.withExcerpt(excerpt), plan, extra);
  }

  /** {@code row} with its concept signals recomputed against {@code plan}, plus {@code extra}. */
  static EvidenceRow resignal(EvidenceRow row, QueryPlan plan, String extra) {
    List<Concept> required = plan.requiredConcepts();
    Set<String> stems = ConceptMatch.stems(row, new HashSet<>(row.matchedTerms()));
    var signals = new ArrayList<String>();
    for (String s : row.signals()) {
      if (!s.startsWith("concepts:")
          && !s.startsWith("missing_concept:")
          && !s.equals("all_required_concepts")
          && !(s.equals(extra))) {
        signals.add(s);
      }
    }
    long matched = 0;
    var missing = new ArrayList<String>();
    for (Concept c : required) {
      if (ConceptMatch.matches(c, stems, row.userTags())) {
        matched++;
      } else {
        missing.add(c.key());
      }
    }
    signals.add("concepts:" + matched + "/" + required.size());
    if (missing.isEmpty() && !required.isEmpty()) {
      signals.add("all_required_concepts");
      signals.remove("partial_match");
    }
    missing.forEach(k -> signals.add("missing_concept:" + k));
    if (extra != null) {
      signals.add(extra);
    }
    var matchedTerms = new ArrayList<String>();
    var missingTerms = new ArrayList<String>();
    for (String term : plan.queryTerms()) {
      boolean hit =
          Words.matches(term, stems) || row.userTags().contains(term.toLowerCase(Locale.ROOT));
      (hit ? matchedTerms : missingTerms).add(term);
    }
    return row.withEvidence(signals, matchedTerms, missingTerms);
  }

  /**
   * A row read from the index: its text windowed around the plan's concepts, concept signals
   * computed, with {@code role} as evidence role and the given first signals.
   */
  static EvidenceRow fromRecord(
      RecordDetail detail,
      int rank,
      String role,
      QueryPlan plan,
      int maxChars,
      List<String> signals,
      String relatedTo,
      String relationship) {
    CorpusRecord r = detail.record();
    Windows.Window window =
        Windows.around(
            r.text(), plan.concepts(), maxChars, -1, -1, MarkdownText.isMarkdown(r.sourceType()));
    var lanes = new ArrayList<LaneScore>();
    if (relatedTo != null) {
      lanes.add(new LaneScore(Lane.RELATED, rank, 0, 0));
    }
    var row =
        new EvidenceRow(
            rank,
            r.key(),
            r.kind(),
            r.sourceType(),
            r.title(),
            r.url(),
            r.path(),
            r.tags(),
            iso(r.createdAt()),
            iso(r.publishedAt()),
            r.summary(),
            window.text(),
            role,
            null,
            new RowRetrieval(lanes, 0),
            signals,
            List.of(),
            List.of(),
            relatedTo,
            relationship);
    return resignal(row, plan, null);
  }

  /** {@code row} at another rank. */
  static EvidenceRow renumber(EvidenceRow row, int rank) {
    return row.withRank(rank);
  }

  /** {@code row} with {@code signal} added (once). */
  static EvidenceRow withSignal(EvidenceRow row, String signal) {
    if (row.signals().contains(signal)) {
      return row;
    }
    var signals = new ArrayList<>(row.signals());
    signals.add(signal);
    return row.withEvidence(signals, row.matchedTerms(), row.missingTerms());
  }

  private static String iso(Instant instant) {
    return instant == null ? null : instant.toString();
  }
}
