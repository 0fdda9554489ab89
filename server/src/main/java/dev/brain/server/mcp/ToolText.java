package dev.brain.server.mcp;

import dev.brain.research.pack.NextStep;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.pack.TopicBrief;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.LaneReport;
import dev.brain.retrieval.LaneScore;
import dev.brain.retrieval.SearchResult;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The concise text rendering of each tool's result: what a reader needs to pick the next step —
 * keys first, one line per row — never the whole structured result again.
 */
final class ToolText {
  private ToolText() {}

  private static final int EXCERPT_CHARS = 240;

  static String pack(ResearchPack pack) {
    var sb = new StringBuilder();
    var c = pack.coverage();
    sb.append(pack.evidence().size())
        .append(" evidence rows for \"")
        .append(pack.question())
        .append("\" (")
        .append(pack.mode())
        .append(")\n");
    for (EvidenceRow row : pack.evidence()) {
      row(sb, row);
    }
    if (!pack.exactTagEvidence().isEmpty()) {
      sb.append("exact-tag matches: ")
          .append(
              pack.exactTagEvidence().stream()
                  .map(r -> "[" + r.sourceKey() + "]")
                  .collect(Collectors.joining(" ")))
          .append('\n');
    }
    if (!c.missingConcepts().isEmpty()) {
      sb.append("missing concepts: ").append(String.join(", ", c.missingConcepts())).append('\n');
    }
    if (pack.topicBrief() != null) {
      sb.append("topic brief: ").append(pack.topicBrief().summary()).append('\n');
    }
    for (NextStep step : pack.nextSteps()) {
      sb.append("next: ").append(step.label()).append('\n');
    }
    if (pack.queryPlan().plannerError() != null) {
      // A planner model that could not be reached (or answered badly) never costs the evidence.
      sb.append("planner not used (")
          .append(pack.queryPlan().plannerError())
          .append("): a deterministic plan\n");
    }
    sb.append(c.recallNote());
    return sb.toString().strip();
  }

  static String search(SearchResult result) {
    var sb = new StringBuilder();
    sb.append(result.rows().size())
        .append(" rows for \"")
        .append(result.query())
        .append("\" (")
        .append(result.candidates())
        .append(" candidates; lanes: ")
        .append(result.lanes().stream().map(ToolText::lane).collect(Collectors.joining(", ")))
        .append(
            result.weakRowsLeftOut() > 0
                ? "; " + result.weakRowsLeftOut() + " weaker rows left out: found by meaning alone"
                : "")
        .append(")\n");
    for (EvidenceRow row : result.rows()) {
      row(sb, row);
    }
    return sb.toString().strip();
  }

  private static String lane(LaneReport r) {
    return r.lane().wireName() + " " + r.status().wireName();
  }

  private static void row(StringBuilder sb, EvidenceRow row) {
    sb.append(row.rank()).append(". [").append(row.sourceKey()).append("] ");
    sb.append(row.title() == null ? "(untitled)" : row.title());
    sb.append(" — ").append(row.sourceType());
    if ("brain_written".equals(row.evidenceRole())) {
      sb.append(", written by brain (its research section in the note, not the user's text)");
    }
    if (row.relationship() != null) {
      sb.append(", ").append(row.relationship()).append(' ').append(row.relatedTo());
    }
    if (row.retrieval() != null && !row.retrieval().lanes().isEmpty()) {
      sb.append(" (")
          .append(
              row.retrieval().lanes().stream()
                  .map(ToolText::laneScore)
                  .collect(Collectors.joining(", ")))
          .append(')');
    }
    sb.append('\n');
    if (row.excerpt() != null && !row.excerpt().isBlank()) {
      sb.append("   ").append(abbreviate(oneLine(row.excerpt()), EXCERPT_CHARS)).append('\n');
    }
  }

  private static String laneScore(LaneScore s) {
    return s.lane().wireName() + " #" + s.rank();
  }

  static String record(Map<String, Object> r) {
    var sb = new StringBuilder();
    sb.append('[').append(r.get("key")).append("] ").append(orDash(r.get("title")));
    sb.append(" — ").append(r.get("kind")).append('/').append(r.get("source_type")).append('\n');
    line(sb, "url", r.get("url"));
    line(sb, "path", r.get("note_path"));
    line(sb, "tags", join(r.get("tags")));
    line(sb, "links", join(r.get("links")));
    if (r.get("unresolved_links") instanceof List<?> unresolved) {
      for (Object o : unresolved) {
        if (o instanceof Map<?, ?> u) {
          line(sb, "unresolved link", u.get("text") + " (" + u.get("reason") + ")");
        }
      }
    }
    line(sb, "backlinks", join(r.get("backlinks")));
    line(sb, "summary (derived)", r.get("summary"));
    Object content = r.get("content");
    if (content != null) {
      sb.append("content (")
          .append(r.get("content_mode"))
          .append(Boolean.TRUE.equals(r.get("truncated")) ? ", truncated" : "")
          .append(", record has ")
          .append(r.get("text_chars"))
          .append(" chars):\n")
          .append(content);
    }
    return sb.toString().strip();
  }

  static String many(List<Map<String, Object>> records, List<Map<String, Object>> errors) {
    var sb = new StringBuilder();
    for (var r : records) {
      sb.append(record(r)).append("\n\n");
    }
    for (var e : errors) {
      sb.append("error [").append(e.get("key")).append("]: ").append(e.get("message")).append('\n');
    }
    if (records.isEmpty() && errors.isEmpty()) {
      sb.append("no records");
    }
    return sb.toString().strip();
  }

  @SuppressWarnings("unchecked")
  static String related(Map<String, Object> out) {
    var sb = new StringBuilder();
    sb.append("related to [").append(out.get("key")).append("] ").append(orDash(out.get("title")));
    sb.append('\n');
    for (String group : List.of("links", "backlinks", "similar")) {
      var rows = (List<Map<String, Object>>) out.get(group);
      sb.append(group).append(": ");
      if (rows.isEmpty()) {
        sb.append("none");
        if (group.equals("similar")) {
          sb.append(" (vector lane ").append(out.get("similar_status")).append(')');
        }
      }
      sb.append('\n');
      for (var n : rows) {
        sb.append("  [").append(n.get("key")).append("] ").append(orDash(n.get("title")));
        if (Boolean.FALSE.equals(n.get("in_index"))) {
          sb.append(" (not in the index)");
        }
        sb.append('\n');
      }
    }
    return sb.toString().strip();
  }

  static String topicBrief(Map<String, Object> out, TopicBrief brief) {
    if (brief == null) {
      return "no topic brief for \"" + out.get("topic") + "\": " + out.get("note");
    }
    var sb = new StringBuilder();
    sb.append("topic brief for \"").append(brief.topic()).append("\"\n");
    sb.append(brief.summary()).append('\n');
    if (!brief.pivots().isEmpty()) {
      sb.append("pivots: ")
          .append(
              brief.pivots().stream()
                  .map(p -> p.label() + " (" + p.type() + ", " + p.connections() + ")")
                  .collect(Collectors.joining("; ")))
          .append('\n');
    }
    if (!brief.entities().isEmpty()) {
      sb.append("entities: ")
          .append(
              brief.entities().stream()
                  .map(e -> e.name() + " (" + e.type() + ")")
                  .collect(Collectors.joining("; ")))
          .append('\n');
    }
    sb.append("evidence: ").append(join(out.get("evidence_keys")));
    return sb.toString().strip();
  }

  static String topicMap(dev.brain.research.pack.TopicMap map) {
    var sb = new StringBuilder();
    sb.append(map.records())
        .append(" records, ")
        .append(map.distinctTags())
        .append(" tags; ")
        .append(map.note())
        .append('\n');
    for (var t : map.topics()) {
      sb.append('#').append(t.tag()).append(" (").append(t.records()).append(')');
      if (!t.coTags().isEmpty()) {
        sb.append(" with ")
            .append(
                t.coTags().stream()
                    .map(c -> "#" + c.tag() + " " + c.records())
                    .collect(Collectors.joining(", ")));
      }
      if (!t.topRecords().isEmpty()) {
        sb.append("; records: ")
            .append(t.topRecords().stream().map(r -> r.key()).collect(Collectors.joining(", ")));
      }
      sb.append('\n');
    }
    if (!map.connections().isEmpty()) {
      sb.append("connections: ")
          .append(
              map.connections().stream()
                  .map(
                      c ->
                          "#"
                              + c.from()
                              + " – #"
                              + c.to()
                              + " ("
                              + c.sharedRecords()
                              + " shared, "
                              + c.links()
                              + " links)")
                  .collect(Collectors.joining("; ")));
    }
    return sb.toString().strip();
  }

  static String entities(dev.brain.research.pack.EntityMap map) {
    var sb = new StringBuilder();
    sb.append(map.entities().size())
        .append(" entities from ")
        .append(map.recordsRead())
        .append(" records")
        .append(map.complete() ? "" : " (those carrying the most used tags)")
        .append('\n');
    for (var e : map.entities()) {
      sb.append(e.id()).append(" (").append(e.records()).append(" records)");
      if (!e.id().equals(e.type() + ":" + e.name())) {
        sb.append(" ").append(e.name());
      }
      sb.append('\n');
    }
    return sb.toString().strip();
  }

  static String entity(dev.brain.research.pack.EntityMap.Named named) {
    var sb = new StringBuilder();
    var e = named.entity();
    sb.append(e.name())
        .append(" (")
        .append(e.type())
        .append("): named by ")
        .append(named.total())
        .append(named.total() == 1 ? " record" : " records")
        .append(" (")
        .append(named.relation())
        .append(")\n");
    for (var r : named.records()) {
      sb.append("- ").append(r.key());
      if (r.title() != null) {
        sb.append(" — ").append(r.title());
      }
      sb.append('\n');
    }
    return sb.toString().strip();
  }

  @SuppressWarnings("unchecked")
  static String status(Map<String, Object> s) {
    var idx = (Map<String, Object>) s.get("index");
    return "brain corpus: "
        + s.get("records")
        + " records, "
        + s.get("chunks")
        + " chunks\nby source type: "
        + counts((Map<String, ?>) s.get("by_source_type"))
        + "\nby kind: "
        + counts((Map<String, ?>) s.get("by_kind"))
        + "\nembedding model: "
        + idx.get("embedding_model")
        + " ("
        + idx.get("dimension")
        + "-d), last sync "
        + orDash(idx.get("last_sync_at"));
  }

  static String counts(Map<String, ?> counts) {
    if (counts.isEmpty()) {
      return "none";
    }
    return counts.entrySet().stream()
        .map(e -> e.getKey() + " " + e.getValue())
        .collect(Collectors.joining(", "));
  }

  private static void line(StringBuilder sb, String label, Object value) {
    if (value != null && !value.toString().isBlank()) {
      sb.append(label).append(": ").append(value).append('\n');
    }
  }

  private static String join(Object list) {
    if (!(list instanceof List<?> l) || l.isEmpty()) {
      return "";
    }
    return l.stream().map(String::valueOf).collect(Collectors.joining(", "));
  }

  private static String orDash(Object o) {
    return o == null || o.toString().isBlank() ? "-" : o.toString();
  }

  private static String oneLine(String s) {
    return s.replaceAll("\\s+", " ").strip();
  }

  private static String abbreviate(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }
}
