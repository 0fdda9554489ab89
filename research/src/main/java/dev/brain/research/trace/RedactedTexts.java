package dev.brain.research.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The texts of one trace, gathered from its files and JSON trees, redacted together by {@link
 * #redact}: plain texts come back by their index, a tree's string values and member names are set
 * in place (a model's raw JSON may use a secret as a name). A JSON member is also read as {@code
 * name: value} (context only), so {@code {"api_key": "..."}} is found like {@code api_key: ...}.
 * Not thread-safe; one per write.
 */
final class RedactedTexts {
  /** Member names whose value is read with its name too (reading every one doubled the work). */
  private static final Pattern KEY_LIKE =
      Pattern.compile(
          "(?i)key|token|secret|passw|pwd|auth|credential|api|sig|session|cookie|private");

  private final List<String> texts = new ArrayList<>();
  private final List<Consumer<String>> setters = new ArrayList<>();
  private final List<String> context = new ArrayList<>();
  private final List<Runnable> renames = new ArrayList<>();
  private List<String> redacted;
  private int runaway;

  /** Adds a text; returns its index for {@link #get}. */
  int add(String text) {
    texts.add(text);
    setters.add(null);
    return texts.size() - 1;
  }

  /**
   * Adds every string value and member name of {@code tree}; {@link #redact} replaces them in the
   * tree.
   */
  void addTree(JsonNode tree) {
    if (tree instanceof ObjectNode object) {
      var names = new ArrayList<String>();
      object.fieldNames().forEachRemaining(names::add);
      int first = texts.size();
      for (String name : names) {
        add(name);
      }
      renames.add(() -> rename(object, names, first));
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

  /** Redacts every text as one document and writes the trees' values and names back. */
  void redact(Redactor redactor) {
    var result = redactor.redactCounting(texts, context);
    redacted = result.texts();
    runaway = result.runaway();
    for (int i = 0; i < setters.size(); i++) {
      if (setters.get(i) != null) {
        setters.get(i).accept(redacted.get(i));
      }
    }
    // After the values: their setters find the members by their original names.
    renames.forEach(Runnable::run);
  }

  /**
   * Gives {@code object}'s members their redacted names, in their order; a name that redaction made
   * equal to an earlier one gets a suffix ({@code [redacted]-2}), so no member is lost.
   */
  private void rename(ObjectNode object, List<String> names, int first) {
    boolean changed = false;
    for (int i = 0; i < names.size(); i++) {
      changed |= !names.get(i).equals(redacted.get(first + i));
    }
    if (!changed) {
      return;
    }
    var values = new ArrayList<JsonNode>();
    for (String name : names) {
      values.add(object.get(name));
    }
    object.removeAll();
    var used = new HashSet<String>();
    for (int i = 0; i < names.size(); i++) {
      String name = redacted.get(first + i);
      String unique = name;
      for (int n = 2; !used.add(unique); n++) {
        unique = name + "-" + n;
      }
      object.set(unique, values.get(i));
    }
  }

  /** Pieces of the texts a gitleaks rule skipped as a runaway match (see {@link SecretRules}). */
  int runaway() {
    return runaway;
  }

  /** The redacted text added as {@code index}. */
  String get(int index) {
    return redacted.get(index);
  }
}
