package dev.brain.index.importer;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A note's TOML front matter, the form Hugo and Zola write: a {@code +++} line, TOML, then a {@code
 * +++} line. Read into the shape the YAML front matter has (every value a list of strings), so that
 * title, tags, dates and summary are taken from either alike. The keys of a table ({@code
 * [taxonomies] tags = [...]}, {@code [extra]}) count as top-level keys unless one of that name is
 * already there.
 */
record TomlFrontMatter(int end, Map<String, List<String>> meta) {

  private static final TomlMapper TOML = new TomlMapper();

  /**
   * The TOML front matter {@code source} opens with, or null when it has none. Text that is not
   * valid TOML between the two lines is still front matter (nothing to show as the note's text),
   * with no values.
   */
  static TomlFrontMatter of(String source) {
    int start = source.startsWith("\uFEFF") ? 1 : 0;
    int open = lineEnd(source, start);
    if (!source.substring(start, open).strip().equals("+++")) {
      return null;
    }
    int line = open + 1;
    while (line < source.length()) {
      int end = lineEnd(source, line);
      if (source.substring(line, end).strip().equals("+++")) {
        String toml = source.substring(Math.min(open + 1, line), line);
        return new TomlFrontMatter(Math.min(end + 1, source.length()), values(toml));
      }
      line = end + 1;
    }
    return null;
  }

  private static Map<String, List<String>> values(String toml) {
    JsonNode root;
    try {
      root = TOML.readTree(toml);
    } catch (JacksonException e) {
      return Map.of();
    }
    var out = new LinkedHashMap<String, List<String>>();
    root.properties().forEach(e -> put(out, e.getKey(), e.getValue()));
    root.properties().stream()
        .filter(e -> e.getValue().isObject())
        .forEach(e -> e.getValue().properties().forEach(f -> put(out, f.getKey(), f.getValue())));
    return out;
  }

  private static void put(Map<String, List<String>> out, String key, JsonNode value) {
    if (out.containsKey(key) || value.isObject()) {
      return;
    }
    var values = new ArrayList<String>();
    if (value.isArray()) {
      value.forEach(v -> values.add(v.asText()));
    } else {
      values.add(value.asText());
    }
    out.put(key, List.copyOf(values));
  }

  private static int lineEnd(String s, int from) {
    int n = s.indexOf('\n', from);
    return n < 0 ? s.length() : n;
  }
}
