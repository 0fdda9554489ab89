package dev.brain.server.mcp;

import dev.brain.Brain;
import dev.brain.index.IndexStats;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the corpus holds and how it is indexed, as {@code brain_status} and {@code brain://status}
 * tell an agent: counts by kind and source type, top tags, the embedding model and index facts, and
 * what each record key prefix names.
 */
final class CorpusFacts {
  private CorpusFacts() {}

  /** The facts of {@code brain}'s index as of its current view. */
  static Map<String, Object> of(Brain brain) throws IOException {
    IndexStats stats = brain.stats();
    var meta = stats.metadata();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("records", stats.records());
    out.put("chunks", stats.chunks());
    out.put("by_kind", stats.byKind());
    out.put("by_source_type", stats.bySourceType());
    out.put(
        "top_tags",
        stats.topTags().stream()
            .limit(12)
            .map(t -> Map.<String, Object>of("tag", t.tag(), "count", t.count()))
            .toList());
    out.put("distinct_tags", stats.distinctTags());
    out.put("source_types", brain.sourceTypes());
    Map<String, Object> idx = new LinkedHashMap<>();
    idx.put("embedding_model", meta.modelId());
    idx.put("dimension", meta.dimension());
    idx.put("vector_format", String.valueOf(meta.vectorFormat()));
    idx.put("schema_version", meta.schemaVersion());
    idx.put("chunking", meta.chunking());
    idx.put("last_sync_at", meta.lastSyncAt() == null ? null : meta.lastSyncAt().toString());
    idx.put("size_bytes", stats.sizeBytes());
    out.put("index", idx);
    out.put("key_formats", KEY_FORMATS);
    return out;
  }

  /** What each record key prefix names. */
  static final Map<String, String> KEY_FORMATS =
      orderedMap(
          "note:<collection>/<path>",
          "a Markdown note of the user's vault",
          "src:<12 hex>",
          "a linked document (web page, PDF, transcript), by its canonical URL",
          "bm:<hash>",
          "a bookmark",
          "feed-entry:<hash>",
          "a feed entry",
          "doc:<id>",
          "a record imported from JSONL/BEIR");

  private static Map<String, String> orderedMap(String... kv) {
    var m = new LinkedHashMap<String, String>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return java.util.Collections.unmodifiableMap(m);
  }
}
