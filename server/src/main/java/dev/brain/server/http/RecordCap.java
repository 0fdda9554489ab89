package dev.brain.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.index.RecordDetail;

/**
 * Caps what {@code GET /api/get} sends of a very large record: the record's text and its chunks'
 * text together stay within {@code max_chars}; chunks past the cap are left out. The answer says so
 * in {@code truncated} ({@code {max_chars, text_chars, chunks_total, chunks_sent}}), absent when
 * nothing was cut. A 50 MB JSONL line thus costs the client what it asked for.
 */
final class RecordCap {
  private RecordCap() {}

  static JsonNode cap(RecordDetail detail, int maxChars) {
    ObjectNode out = HttpJson.MAPPER.valueToTree(detail);
    long budget = maxChars;
    JsonNode record = out.path("record");
    long textChars = record.path("text").asText("").length();
    boolean cut = false;
    if (record instanceof ObjectNode r && record.path("text").isTextual()) {
      String text = record.path("text").asText();
      if (text.length() > budget) {
        r.put("text", text.substring(0, (int) budget));
        cut = true;
      }
      budget -= Math.min(budget, text.length());
    }
    int total = 0;
    int sent = 0;
    if (out.path("chunks") instanceof ArrayNode chunks) {
      total = chunks.size();
      ArrayNode kept = HttpJson.MAPPER.createArrayNode();
      for (JsonNode chunk : chunks) {
        int size = chunk.toString().length();
        if (size > budget) {
          cut = true;
          break;
        }
        budget -= size;
        kept.add(chunk);
        sent++;
      }
      out.set("chunks", kept);
    }
    if (cut) {
      ObjectNode truncated = out.putObject("truncated");
      truncated.put("max_chars", maxChars);
      truncated.put("text_chars", textChars);
      truncated.put("chunks_total", total);
      truncated.put("chunks_sent", sent);
    }
    return out;
  }
}
