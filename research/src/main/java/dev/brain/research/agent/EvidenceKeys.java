package dev.brain.research.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The record keys one agent run's evidence tools returned and the model actually saw: what an
 * answer may cite. Worker output never adds keys. Not thread-safe; one per run.
 */
final class EvidenceKeys {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Set<String> keys = new LinkedHashSet<>();

  /**
   * Adds the keys of an evidence tool's result: values of {@code key}/{@code source_key} in its
   * JSON that are still present in the {@code kept} (possibly cut) text the model is shown.
   */
  void collect(String full, String kept) {
    JsonNode root;
    try {
      root = JSON.readTree(full);
    } catch (JsonProcessingException e) {
      return;
    }
    var found = new LinkedHashSet<String>();
    walk(root, found);
    for (String key : found) {
      if (kept.contains(key)) {
        keys.add(key);
      }
    }
  }

  /** Whether a cited key was returned: exactly, or as a chunk of it ({@code key#3}). */
  boolean returned(String cited) {
    if (keys.contains(cited)) {
      return true;
    }
    int hash = cited.indexOf('#');
    return hash > 0 && keys.contains(cited.substring(0, hash));
  }

  boolean isEmpty() {
    return keys.isEmpty();
  }

  /** The keys in the order they were first returned. */
  List<String> list() {
    return List.copyOf(keys);
  }

  /** The record keys in a tool result: values of {@code key}/{@code source_key} and key lists. */
  private static void walk(JsonNode node, Set<String> out) {
    if (node.isArray()) {
      node.forEach(child -> walk(child, out));
      return;
    }
    if (!node.isObject()) {
      return;
    }
    for (var field : node.properties()) {
      String name = field.getKey();
      JsonNode value = field.getValue();
      if ((name.equals("key") || name.equals("source_key")) && value.isTextual()) {
        out.add(value.asText());
      } else {
        walk(value, out);
      }
    }
  }
}
