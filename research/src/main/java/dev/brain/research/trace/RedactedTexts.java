package dev.brain.research.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The texts of one trace, gathered from its files and JSON trees, redacted together by {@link
 * #redact}: plain texts come back by their index, a tree's string values are set in place. A JSON
 * member is also read as {@code name: value} (context only), so {@code {"api_key": "..."}} is found
 * like {@code api_key: ...}. Not thread-safe; one per write.
 */
final class RedactedTexts {
  /** Member names whose value is read with its name too (reading every one doubled the work). */
  private static final Pattern KEY_LIKE =
      Pattern.compile(
          "(?i)key|token|secret|passw|pwd|auth|credential|api|sig|session|cookie|private");

  private final List<String> texts = new ArrayList<>();
  private final List<Consumer<String>> setters = new ArrayList<>();
  private final List<String> context = new ArrayList<>();
  private List<String> redacted;

  /** Adds a text; returns its index for {@link #get}. */
  int add(String text) {
    texts.add(text);
    setters.add(null);
    return texts.size() - 1;
  }

  /** Adds every string value of {@code tree}; {@link #redact} replaces them in the tree. */
  void addTree(JsonNode tree) {
    if (tree instanceof ObjectNode object) {
      var names = new ArrayList<String>();
      object.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        JsonNode value = object.get(name);
        if (value.isTextual()) {
          texts.add(value.asText());
          setters.add(s -> object.put(name, s));
          if (KEY_LIKE.matcher(name).find()) {
            context.add(name + ": " + value.asText());
          }
        } else {
          addTree(value);
        }
      }
    } else if (tree instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        JsonNode value = array.get(i);
        if (value.isTextual()) {
          int at = i;
          texts.add(value.asText());
          setters.add(s -> array.set(at, TextNode.valueOf(s)));
        } else {
          addTree(value);
        }
      }
    }
  }

  /** Redacts every text as one document and writes the trees' values back. */
  void redact(Redactor redactor) {
    redacted = redactor.redactAll(texts, context);
    for (int i = 0; i < setters.size(); i++) {
      if (setters.get(i) != null) {
        setters.get(i).accept(redacted.get(i));
      }
    }
  }

  /** The redacted text added as {@code index}. */
  String get(int index) {
    return redacted.get(index);
  }
}
