package dev.brain.research.trace;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.research.json.Json;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.QueryPlan;
import dev.brain.research.plan.QueryVariant;
import dev.brain.research.run.ProgressEvent;
import dev.brain.research.run.RunStage;
import dev.brain.retrieval.EvidenceRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * The sections of {@code run.md} about how the evidence was found: the plan, the evidence rows with
 * why each is there, and the ranking (keys per variant, re-scoring, what was dropped and why).
 */
final class EvidenceMarkdown {
  private EvidenceMarkdown() {}

  /** Longest evidence excerpt shown per row. */
  static final int EXCERPT_CHARS = 280;

  /** The plan, then the ranked rows with why each is there, then the exact-tag rows. */
  static void evidence(StringBuilder md, ResearchPack pack) {
    if (pack == null) {
      return;
    }
    QueryPlan plan = pack.queryPlan();
    md.append("## Plan\n\n");
    md.append("- Family: ").append(plan.queryFamily().wireName()).append('\n');
    md.append("- Main search: \"").append(plan.textQuery()).append("\"\n");
    if (plan.followUp() != null) {
      md.append("- Follow-up: ").append(TraceMarkdown.oneLine(plan.followUp().reason()));
      md.append("; inherited: ").append(String.join(", ", plan.followUp().inheritedConcepts()));
      md.append('\n');
    }
    md.append("- Concepts: ");
    md.append(
        String.join(
            ", ",
            plan.concepts().stream()
                .map(c -> c.preferred() + (c.required() ? " (required)" : ""))
                .toList()));
    md.append('\n');
    md.append("- Planner: ").append(plan.planner());
    if (plan.plannerError() != null) {
      md.append(" — planner error: ").append(plan.plannerError());
    }
    md.append('\n');
    md.append("- Variants:\n");
    for (QueryVariant v : plan.queryVariants()) {
      md.append("  - \"").append(v.query()).append("\" — ").append(v.reason()).append('\n');
    }
    md.append('\n');
    md.append("## Evidence\n\n").append(pack.coverage().recallNote()).append("\n\n");
    for (EvidenceRow row : pack.evidence()) {
      md.append(row.rank()).append(". `").append(row.sourceKey()).append('`');
      if (row.title() != null) {
        md.append(" ").append(row.title());
      }
      md.append(" — ").append(row.sourceType()).append(", ").append(row.evidenceRole());
      if (row.notePath() != null) {
        md.append(", ").append(row.notePath());
      }
      if (row.relatedTo() != null) {
        md.append(", ").append(row.relationship()).append(" `").append(row.relatedTo()).append('`');
      }
      md.append("\n   - why: ").append(String.join(" · ", row.signals())).append('\n');
      if (!row.missingTerms().isEmpty()) {
        md.append("   - missing terms: ")
            .append(String.join(", ", row.missingTerms()))
            .append('\n');
      }
      if (row.excerpt() != null && !row.excerpt().isBlank()) {
        md.append("   - ")
            .append(cut(TraceMarkdown.oneLine(row.excerpt()), EXCERPT_CHARS))
            .append('\n');
      }
    }
    for (EvidenceRow row : pack.exactTagEvidence()) {
      md.append("- exact tag: `").append(row.sourceKey()).append('`');
      if (row.title() != null) {
        md.append(" ").append(row.title());
      }
      md.append(" #").append(String.join(" #", row.userTags())).append('\n');
    }
    md.append('\n');
  }

  /**
   * The retrieval's keys per variant, the re-scoring and every row left out with why, from the
   * retrieval and preparation events' data (read as JSON: the same whether the events are the run's
   * own or read back from a file).
   */
  static void ranking(StringBuilder md, List<ProgressEvent> events) {
    JsonNode retrieval = completed(events, RunStage.RETRIEVAL);
    JsonNode preparation = completed(events, RunStage.PREPARATION);
    if (retrieval == null || !retrieval.has("variant_keys")) {
      return;
    }
    md.append("## Ranking\n\n");
    md.append("Keys per variant, in search order (lanes, fused score):\n\n");
    for (JsonNode v : retrieval.path("variant_keys")) {
      md.append("- \"").append(TraceMarkdown.oneLine(v.path("query").asText())).append("\" — ");
      md.append(v.path("rows").asInt()).append(" rows");
      var keys = new ArrayList<String>();
      for (JsonNode k : v.path("keys")) {
        var lanes = new ArrayList<String>();
        k.path("lanes").forEach(l -> lanes.add(l.asText()));
        keys.add(
            "`"
                + k.path("source_key").asText()
                + "` "
                + String.join("+", lanes)
                + " "
                + k.path("score").asText());
      }
      md.append(keys.isEmpty() ? "" : ": " + String.join(", ", keys));
      if (v.path("keys").size() < v.path("rows").asInt()) {
        md.append(", …");
      }
      md.append('\n');
    }
    var why = new HashMap<String, String>();
    retrieval.path("dropped").forEach(d -> why.put(d.path("source_key").asText(), reason(d)));
    md.append("\nRe-scored by concepts (before → after):\n\n");
    for (JsonNode r : retrieval.path("rescored")) {
      String key = r.path("source_key").asText();
      md.append("- `")
          .append(key)
          .append("` ")
          .append(r.path("before").asText())
          .append(" → ")
          .append(r.path("after").asText())
          .append(
              r.has("rank")
                  ? " (#" + r.path("rank").asInt() + ")"
                  : " (dropped" + (why.containsKey(key) ? ": " + why.get(key) : "") + ")")
          .append('\n');
    }
    var dropped = new ArrayList<String>();
    retrieval
        .path("dropped")
        .forEach(d -> dropped.add(d.path("source_key").asText() + "`: " + reason(d)));
    int more = retrieval.path("dropped_more").asInt();
    if (preparation != null) {
      preparation
          .path("dropped")
          .forEach(
              d ->
                  dropped.add(
                      d.path("source_key").asText() + "`: " + reason(d) + " (synthesis input)"));
    }
    md.append("\nDropped:");
    md.append(dropped.isEmpty() ? " none\n" : "\n\n");
    dropped.forEach(d -> md.append("- `").append(d).append('\n'));
    if (more > 0) {
      md.append("- … ").append(more).append(" more dropped by the ranking\n");
    }
    md.append('\n');
  }

  private static String reason(JsonNode dropped) {
    return dropped.path("reason").asText();
  }

  /** The data of {@code stage}'s completed event, as JSON, or null. */
  private static JsonNode completed(List<ProgressEvent> events, RunStage stage) {
    return events.stream()
        .filter(e -> e.stage() == stage && e.status() == ProgressEvent.Status.COMPLETED)
        .findFirst()
        .<JsonNode>map(e -> Json.mapper().valueToTree(e.data()))
        .orElse(null);
  }

  private static String cut(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }
}
