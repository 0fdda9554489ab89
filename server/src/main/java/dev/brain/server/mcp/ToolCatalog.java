package dev.brain.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Reads {@code mcp/tools.json}: names, descriptions, annotations and both schemas. */
final class ToolCatalog {
  private ToolCatalog() {}

  /** The read-only tools over the index (no writing tool, no worker tools). */
  static List<McpSchema.Tool> tools() {
    return tools(false, false);
  }

  /** The tools over the index, the writing one when {@code writes} is on. */
  static List<McpSchema.Tool> tools(boolean writes) {
    return tools(writes, false);
  }

  /**
   * The tools; those marked {@code "writes": true} ({@code brain_research_note}) only when {@code
   * writes} is on ({@code mcp.allow-writes}), those marked {@code "worker": true} ({@code
   * brain_summarize}, {@code brain_extract}) only when {@code worker} is ({@code
   * agent.worker-model}). Annotations come from the file, read-only unless it says otherwise.
   */
  static List<McpSchema.Tool> tools(boolean writes, boolean worker) {
    var json = new ObjectMapper();
    JsonNode root = catalog(json);
    JsonNode record = root.get("record_schema");
    var out = new ArrayList<McpSchema.Tool>();
    for (JsonNode t : root.get("tools")) {
      if (t.path("writes").asBoolean(false) && !writes
          || t.path("worker").asBoolean(false) && !worker) {
        continue;
      }
      JsonNode output = inline(t.get("output").deepCopy(), record);
      out.add(
          McpSchema.Tool.builder(
                  t.get("name").asText(), json.convertValue(t.get("input"), BrainTools.MAP_TYPE))
              .title(t.get("title").asText())
              .description(t.get("description").asText())
              .outputSchema(json.convertValue(output, BrainTools.MAP_TYPE))
              .annotations(
                  new McpSchema.ToolAnnotations(
                      t.get("title").asText(),
                      t.path("read_only").asBoolean(true),
                      t.path("destructive").asBoolean(false),
                      t.path("idempotent").asBoolean(true),
                      t.path("open_world").asBoolean(false),
                      null))
              .build());
    }
    return out;
  }

  /**
   * The names of the tools marked {@code "writes": true} ({@code brain_research_note}): over HTTP a
   * call of one needs the server's token.
   */
  static Set<String> writing() {
    var names = new HashSet<String>();
    for (JsonNode t : catalog(new ObjectMapper()).get("tools")) {
      if (t.path("writes").asBoolean(false)) {
        names.add(t.get("name").asText());
      }
    }
    return Set.copyOf(names);
  }

  private static JsonNode catalog(ObjectMapper json) {
    try (var in = BrainMcp.class.getResourceAsStream("/mcp/tools.json")) {
      if (in == null) {
        throw new IllegalStateException("mcp/tools.json is missing from the jar");
      }
      return json.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code node} with every {@code {"$ref": "#/$defs/record"}} replaced by {@code record}. */
  private static JsonNode inline(JsonNode node, JsonNode record) {
    if (node.isObject()) {
      if (node.has("$ref") && "#/$defs/record".equals(node.get("$ref").asText())) {
        return record.deepCopy();
      }
      var object = (ObjectNode) node;
      var names = new ArrayList<String>();
      object.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        object.set(name, inline(object.get(name), record));
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        ((com.fasterxml.jackson.databind.node.ArrayNode) node).set(i, inline(node.get(i), record));
      }
    }
    return node;
  }
}
