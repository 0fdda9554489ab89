package dev.brain.server.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The arguments of one tool call, read with checks whose messages name the argument and the fix.
 * Tools receive JSON objects; numbers may arrive as any {@link Number}.
 */
final class ToolArgs {
  private final String tool;
  private final Map<String, Object> values;

  ToolArgs(String tool, Map<String, Object> values, Set<String> allowed) {
    this.tool = tool;
    this.values = values == null ? Map.of() : values;
    for (String name : this.values.keySet()) {
      if (!allowed.contains(name)) {
        throw new ToolInputException(
            name,
            "unknown argument '"
                + name
                + "' for "
                + tool
                + " (allowed: "
                + String.join(", ", allowed.stream().sorted().toList())
                + ")");
      }
    }
  }

  boolean has(String name) {
    return values.get(name) != null;
  }

  String requiredString(String name) {
    String value = string(name);
    if (value == null || value.isBlank()) {
      throw new ToolInputException(name, tool + " needs a non-empty '" + name + "' string");
    }
    return value.strip();
  }

  /** {@link #requiredString(String)} of at most {@code maxChars} characters. */
  String requiredString(String name, int maxChars) {
    String value = requiredString(name);
    if (value.length() > maxChars) {
      throw tooLong(name, value.length(), maxChars);
    }
    return value;
  }

  /** {@link #string(String)} of at most {@code maxChars} characters. */
  String string(String name, int maxChars) {
    String value = string(name);
    if (value != null && value.length() > maxChars) {
      throw tooLong(name, value.length(), maxChars);
    }
    return value;
  }

  private ToolInputException tooLong(String name, int length, int maxChars) {
    return new ToolInputException(
        name,
        "'" + name + "' is " + length + " characters long; at most " + maxChars + " are accepted");
  }

  String string(String name) {
    Object value = values.get(name);
    if (value == null) {
      return null;
    }
    if (!(value instanceof String s)) {
      throw new ToolInputException(name, "'" + name + "' must be a string");
    }
    return s;
  }

  Integer integer(String name, int min, int max) {
    Object value = values.get(name);
    if (value == null) {
      return null;
    }
    if (!(value instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
      throw new ToolInputException(name, "'" + name + "' must be a whole number");
    }
    long v = n.longValue();
    if (v < min || v > max) {
      throw new ToolInputException(
          name, "'" + name + "' must be between " + min + " and " + max + ", got " + v);
    }
    return (int) v;
  }

  Boolean bool(String name) {
    Object value = values.get(name);
    if (value == null) {
      return null;
    }
    if (!(value instanceof Boolean b)) {
      throw new ToolInputException(name, "'" + name + "' must be true or false");
    }
    return b;
  }

  /**
   * A list of strings, at most {@code max} entries of at most {@value #MAX_NAME_CHARS} characters
   * (keys, tags, type and lane names); {@code null} when absent.
   */
  List<String> strings(String name, int max) {
    return strings(name, max, MAX_NAME_CHARS);
  }

  /** Longest record key, tag or other name an argument holds. */
  static final int MAX_NAME_CHARS = 1_024;

  /** As {@link #strings(String, int)}, each string at most {@code maxChars} characters. */
  List<String> strings(String name, int max, int maxChars) {
    Object value = values.get(name);
    if (value == null) {
      return null;
    }
    if (!(value instanceof List<?> list)) {
      throw new ToolInputException(name, "'" + name + "' must be an array of strings");
    }
    if (list.size() > max) {
      throw new ToolInputException(
          name, "'" + name + "' takes at most " + max + " entries, got " + list.size());
    }
    var out = new ArrayList<String>();
    for (Object o : list) {
      if (!(o instanceof String s) || s.isBlank()) {
        throw new ToolInputException(name, "'" + name + "' must hold non-empty strings only");
      }
      if (s.length() > maxChars) {
        throw new ToolInputException(
            name, "'" + name + "' must hold strings of at most " + maxChars + " characters");
      }
      out.add(s.strip());
    }
    return out;
  }
}
