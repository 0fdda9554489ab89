package dev.brain.research.pack;

import dev.brain.research.plan.Concept;
import dev.brain.research.plan.QueryPlan;
import dev.brain.research.plan.Strategy;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.LaneStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The coverage section, recall note and next steps of a pack. */
final class CoverageBuilder {

  private final Strategy strategy;
  private final ConceptWeights weights;

  CoverageBuilder(Strategy strategy, ConceptWeights weights) {
    this.strategy = strategy;
    this.weights = weights;
  }

  Coverage coverage(
      List<EvidenceRow> evidence,
      long exactTagMatches,
      Map<String, Integer> textMatches,
      TopicBrief brief,
      EvidenceRanking ranking,
      LaneStatus vectorStatus,
      ResearchOptions options) {
    List<String> missing = ranking.missingConcepts(evidence);
    List<String> absent =
        strategy.required().stream().filter(weights::absent).map(Concept::key).toList();
    List<String> common =
        strategy.required().stream()
            .filter(c -> weights.share(c) >= Coverage.COMMON_SHARE)
            .map(Concept::key)
            .toList();
    String note =
        recallNote(
            evidence,
            textMatches,
            exactTagMatches,
            missing,
            absent,
            ranking,
            vectorStatus,
            options);
    return new Coverage(
        evidence.size(),
        counts(evidence, EvidenceRow::kind),
        counts(evidence, EvidenceRow::sourceType),
        topTags(evidence),
        (int) exactTagMatches,
        textMatches,
        brief == null ? 0 : brief.nodes().size(),
        brief == null ? 0 : brief.edges().size(),
        missing,
        absent,
        common,
        note);
  }

  static Map<String, Integer> counts(
      List<EvidenceRow> rows, java.util.function.Function<EvidenceRow, String> key) {
    var counts = new LinkedHashMap<String, Integer>();
    rows.forEach(r -> counts.merge(String.valueOf(key.apply(r)), 1, Integer::sum));
    return sortedByCount(counts);
  }

  private static Map<String, Integer> sortedByCount(Map<String, Integer> counts) {
    var out = new LinkedHashMap<String, Integer>();
    counts.entrySet().stream()
        .sorted(
            Map.Entry.<String, Integer>comparingByValue()
                .reversed()
                .thenComparing(Map.Entry.comparingByKey()))
        .forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  static List<Coverage.TagCount> topTags(List<EvidenceRow> rows) {
    var counts = new LinkedHashMap<String, Integer>();
    rows.forEach(r -> r.userTags().forEach(t -> counts.merge(t, 1, Integer::sum)));
    return counts.entrySet().stream()
        .sorted(
            Map.Entry.<String, Integer>comparingByValue()
                .reversed()
                .thenComparing(Map.Entry.comparingByKey()))
        .limit(Coverage.TOP_TAGS)
        .map(e -> new Coverage.TagCount(e.getKey(), e.getValue()))
        .toList();
  }

  private String recallNote(
      List<EvidenceRow> evidence,
      Map<String, Integer> textMatches,
      long exactTagMatches,
      List<String> missing,
      List<String> absent,
      EvidenceRanking ranking,
      LaneStatus vectorStatus,
      ResearchOptions options) {
    int matching = textMatches.values().stream().mapToInt(Integer::intValue).sum();
    var note = new StringBuilder();
    if (evidence.isEmpty()) {
      note.append("No evidence: no record matched enough of the question's key concepts (")
          .append(String.join(", ", strategy.required().stream().map(Concept::preferred).toList()))
          .append(").");
      if (!absent.isEmpty()) {
        note.append(" Absent from the whole corpus: ")
            .append(String.join(", ", absent))
            .append('.');
      }
      if (ranking.candidateCount() > 0) {
        note.append(" ")
            .append(ranking.candidateCount())
            .append(
                " records matched some words or were near in meaning, but too weakly to count.");
      }
    } else {
      note.append("Evidence is a capped working set, not the full corpus: the top ")
          .append(evidence.stream().filter(r -> !r.isRelated()).count())
          .append(" records (limit ")
          .append(options.limit())
          .append(") of at least ")
          .append(matching)
          .append(" records whose text matches the search (")
          .append(textMatches.getOrDefault("item", 0))
          .append(" items, ")
          .append(textMatches.getOrDefault("source", 0))
          .append(" sources)");
      if (exactTagMatches > 0) {
        note.append(" and ").append(exactTagMatches).append(" records with a matching tag");
      }
      note.append('.');
      if (!missing.isEmpty()) {
        note.append(" No evidence row matches: ").append(String.join(", ", missing)).append('.');
      }
    }
    if (!options.sourceTypes().isEmpty()) {
      note.append(" Only source types ")
          .append(String.join(", ", options.sourceTypes()))
          .append(" were searched.");
    }
    if (options.semantic() && vectorStatus != null && vectorStatus != LaneStatus.USED) {
      note.append(" The semantic lane did not run (").append(vectorStatus.wireName()).append(").");
    } else if (!options.semantic()) {
      note.append(" The semantic lane was switched off (lexical only).");
    }
    return note.toString();
  }

  /**
   * Semantic follow-ups: inspect the top rows, expand related, open the best; or, without evidence,
   * broaden the search and look at {@code nearest} (the records nearest in meaning; may be null).
   */
  static List<NextStep> nextSteps(
      QueryPlan plan, List<EvidenceRow> evidence, ResearchOptions options, NextStep nearest) {
    var steps = new ArrayList<NextStep>();
    List<EvidenceRow> ranked = evidence.stream().filter(r -> !r.isRelated()).toList();
    if (ranked.isEmpty()) {
      var params = new LinkedHashMap<String, Object>();
      params.put("query", plan.textQuery());
      params.put("source_types", List.of());
      steps.add(
          new NextStep(
              NextStep.BROADEN_SEARCH, "Search again with fewer words or no filters", params));
      if (nearest != null) {
        steps.add(nearest);
      }
      return steps;
    }
    List<String> top =
        ranked.stream()
            .sorted(Comparator.comparingInt(EvidenceRow::rank))
            .limit(3)
            .map(EvidenceRow::sourceKey)
            .toList();
    var inspect = new LinkedHashMap<String, Object>();
    inspect.put("lookups", top);
    inspect.put("content_mode", "evidence");
    inspect.put("query", plan.textQuery());
    steps.add(
        new NextStep(NextStep.INSPECT_TOP_EVIDENCE, "Inspect the strongest evidence", inspect));
    if (!options.includeRelated()) {
      steps.add(
          new NextStep(
              NextStep.EXPAND_RELATED, "Expand related evidence", Map.of("lookup", top.get(0))));
    }
    steps.add(
        new NextStep(NextStep.OPEN_LOOKUP, "Open the top record", Map.of("lookup", top.get(0))));
    return steps;
  }
}
