package dev.brain.server.mcp;

import dev.brain.Brain;
import dev.brain.index.CorpusRecord;
import dev.brain.index.RecordDetail;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.pack.ResearchPack;
import dev.brain.retrieval.EvidenceRow;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A record as the read tools return it ({@code brain_get}, {@code brain_get_many}, the {@code
 * brain://record/{key}} resource): its metadata, links and backlinks, and its text in full (paged)
 * or as an evidence window around a query, or not at all.
 */
final class RecordContent {
  private final Brain brain;

  RecordContent(Brain brain) {
    this.brain = brain;
  }

  /** How much of a record's text to return, and how. */
  record ContentRequest(String mode, String query, int maxChars, int offset) {
    static ContentRequest of(ToolArgs args, int defaultChars) {
      String query = args.string("query", ResearchOptions.MAX_QUESTION_CHARS);
      String mode = args.string("content", 16);
      if (mode == null) {
        mode = query == null || query.isBlank() ? "full" : "evidence";
      }
      if (!mode.equals("full") && !mode.equals("evidence") && !mode.equals("none")) {
        throw new ToolInputException(
            "content", "'content' must be evidence, full or none, got '" + mode + "'");
      }
      if (mode.equals("evidence") && (query == null || query.isBlank())) {
        throw new ToolInputException(
            "query", "content 'evidence' needs a 'query' to centre the window on");
      }
      Integer maxChars = args.integer("max_chars", 40, BrainTools.MAX_CONTENT_CHARS);
      Integer offset = args.has("offset") ? args.integer("offset", 0, Integer.MAX_VALUE) : null;
      if (offset != null && !mode.equals("full")) {
        throw new ToolInputException("offset", "'offset' pages through content 'full' only");
      }
      return new ContentRequest(
          mode,
          query == null ? null : query.strip(),
          maxChars == null ? defaultChars : maxChars,
          offset == null ? 0 : offset);
    }
  }

  /** The whole text of a record, up to {@code maxChars}. */
  static ContentRequest full(int maxChars) {
    return new ContentRequest("full", null, maxChars, 0);
  }

  Map<String, Object> of(RecordDetail detail, ContentRequest content) throws IOException {
    CorpusRecord r = detail.record();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("key", r.key());
    out.put("kind", r.kind());
    out.put("source_type", r.sourceType());
    out.put("title", r.title());
    out.put("url", r.url());
    out.put("note_path", r.path());
    out.put("author", r.author());
    out.put("tags", r.tags());
    out.put("created_at", r.createdAt() == null ? null : r.createdAt().toString());
    out.put("published_at", r.publishedAt() == null ? null : r.publishedAt().toString());
    out.put("summary", r.summary());
    out.put("links", detail.linkedKeys());
    if (!detail.unresolvedLinks().isEmpty()) {
      var unresolved = new java.util.ArrayList<Map<String, Object>>();
      for (var link : detail.unresolvedLinks()) {
        Map<String, Object> u = new LinkedHashMap<>();
        u.put("key", link.key());
        u.put("text", link.text());
        u.put("reason", link.unresolved());
        unresolved.add(u);
      }
      out.put("unresolved_links", unresolved);
    }
    out.put("backlinks", detail.backlinks());
    out.put("chunk_count", detail.chunks().size());
    out.put("text_chars", r.text().length());
    out.put("content_mode", content.mode());
    switch (content.mode()) {
      case "full" -> {
        int start = Math.min(content.offset(), r.text().length());
        int end = Math.min(r.text().length(), start + content.maxChars());
        out.put("content", r.text().substring(start, end));
        out.put("content_start", start);
        out.put("content_end", end);
        out.put("truncated", start > 0 || end < r.text().length());
      }
      case "evidence" -> {
        String window = window(r.key(), content.query(), content.maxChars());
        out.put("content", window);
        out.put("truncated", window.length() < r.text().length());
      }
      default -> out.put("truncated", false);
    }
    return out;
  }

  /**
   * The record's text windowed on the query's concepts, exactly as a research pack shows a pinned
   * record (or the row's own excerpt when the record is the query's best match).
   */
  private String window(String key, String query, int maxChars) throws IOException {
    var options =
        brain.researchOptions().withLimit(1).withSemantic(false).withMaxCharsPerDoc(maxChars);
    ResearchPack pack = brain.pack(query, options, null); // windowing needs no planner
    ResearchPack pinned = brain.pin(pack, List.of(key), options).pack();
    return pinned.find(key).map(EvidenceRow::excerpt).orElse("");
  }

  static Map<String, Object> error(String key, String code, String message) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("key", key);
    e.put("code", code);
    e.put("message", message);
    return e;
  }
}
