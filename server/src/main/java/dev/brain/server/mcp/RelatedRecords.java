package dev.brain.server.mcp;

import dev.brain.Brain;
import dev.brain.index.CorpusRecord;
import dev.brain.index.RecordDetail;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.SearchOptions;
import dev.brain.retrieval.SearchResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code brain_related} returns: a record's links, backlinks and nearest records in meaning.
 */
final class RelatedRecords {
  private RelatedRecords() {}

  /** A record's links, backlinks and (when {@code similar}) the records nearest in meaning. */
  static Map<String, Object> of(Brain brain, RecordDetail detail, int limit, boolean similar)
      throws IOException {
    CorpusRecord r = detail.record();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("key", r.key());
    out.put("title", r.title());
    var linked = new ArrayList<>(detail.linkedKeys());
    detail.unresolvedLinks().forEach(l -> linked.add(l.key()));
    out.put("links", neighbours(brain, linked, "links_to", limit));
    out.put("backlinks", neighbours(brain, detail.backlinks(), "linked_from", limit));
    if (similar) {
      similar(brain, r, limit, out);
    } else {
      out.put("similar", List.of());
      out.put("similar_status", "disabled");
    }
    return out;
  }

  private static List<Map<String, Object>> neighbours(
      Brain brain, List<String> keys, String relationship, int limit) throws IOException {
    var out = new ArrayList<Map<String, Object>>();
    for (String k : keys.stream().limit(limit).toList()) {
      Map<String, Object> n = new LinkedHashMap<>();
      n.put("key", k);
      n.put("relationship", relationship);
      Optional<RecordDetail> d = brain.get(k);
      n.put("in_index", d.isPresent());
      n.put("title", d.map(x -> x.record().title()).orElse(null));
      n.put("source_type", d.map(x -> x.record().sourceType()).orElse(null));
      out.add(n);
    }
    return out;
  }

  private static void similar(Brain brain, CorpusRecord r, int limit, Map<String, Object> out)
      throws IOException {
    String text = r.text().length() > 600 ? r.text().substring(0, 600) : r.text();
    String query = ((r.title() == null ? "" : r.title() + "\n") + text).strip();
    if (query.isBlank()) {
      out.put("similar", List.of());
      out.put("similar_status", "empty_record");
      return;
    }
    var options = SearchOptions.builder().lanes(Lane.VECTOR).limit(limit + 1).build();
    SearchResult result = brain.search(query, options);
    var rows = new ArrayList<Map<String, Object>>();
    for (EvidenceRow row : result.rows()) {
      if (!row.sourceKey().equals(r.key()) && rows.size() < limit) {
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("key", row.sourceKey());
        n.put("title", row.title());
        n.put("source_type", row.sourceType());
        n.put("score", row.retrieval() == null ? null : row.retrieval().fusedScore());
        rows.add(n);
      }
    }
    out.put("similar", rows);
    out.put("similar_status", result.status(Lane.VECTOR).wireName());
  }
}
