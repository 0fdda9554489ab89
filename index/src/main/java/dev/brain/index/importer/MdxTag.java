package dev.brain.index.importer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A JSX tag: its name (empty for a fragment), kind and quoted attribute values. */
record MdxTag(String name, Kind kind, Map<String, String> attributes) {
  enum Kind {
    OPEN,
    CLOSE,
    SELF_CLOSING
  }

  List<String> visible() {
    var shown = new ArrayList<String>();
    for (var entry : attributes.entrySet()) {
      if (Mdx.VISIBLE.contains(entry.getKey()) && !entry.getValue().isBlank()) {
        shown.add(entry.getValue().strip());
      }
    }
    return shown;
  }
}
