package dev.brain.research.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The {@link ToolHook} of the hook rules in brain.yaml ({@code agent.hooks.halt} and {@code
 * agent.hooks.set}), comma-separated:
 *
 * <ul>
 *   <li>halt: {@code TOOL} or {@code TOOL:REGEX} halts every call of {@code TOOL} (a name, or a
 *       prefix ending in {@code *}), or only those whose arguments (as JSON text) contain a match
 *       of {@code REGEX}; e.g. {@code brain_get_many, web__*, brain_search:(?i)password}
 *   <li>set: {@code TOOL.ARG=VALUE} rewrites a call's argument {@code ARG} to {@code VALUE} (JSON
 *       when it parses as JSON, else text); e.g. {@code brain_search.limit=5}
 * </ul>
 *
 * Halts are checked first, then every matching set applies in order.
 */
public final class HookRules implements ToolHook {
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Halt(String rule, String tool, Pattern arguments) {}

  private record Set(String rule, String tool, String argument, JsonNode value) {}

  private final List<Halt> halts;
  private final List<Set> sets;

  private HookRules(List<Halt> halts, List<Set> sets) {
    this.halts = List.copyOf(halts);
    this.sets = List.copyOf(sets);
  }

  /**
   * The rules of {@code halt} and {@code set} (either may be null or blank).
   *
   * @throws IllegalArgumentException saying which rule is malformed and why
   */
  public static HookRules parse(String halt, String set) {
    var halts = new ArrayList<Halt>();
    for (String rule : split(halt)) {
      int colon = rule.indexOf(':');
      String tool = (colon < 0 ? rule : rule.substring(0, colon)).strip();
      checkTool(tool, rule);
      Pattern pattern = null;
      if (colon >= 0) {
        String regex = rule.substring(colon + 1).strip();
        if (regex.isEmpty()) {
          throw new IllegalArgumentException("rule '" + rule + "' has an empty pattern after ':'");
        }
        try {
          pattern = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
          throw new IllegalArgumentException(
              "rule '" + rule + "' has an invalid pattern: " + e.getDescription());
        }
      }
      halts.add(new Halt(rule, tool, pattern));
    }
    var sets = new ArrayList<Set>();
    for (String rule : split(set)) {
      int eq = rule.indexOf('=');
      int dot = eq < 0 ? -1 : rule.lastIndexOf('.', eq);
      if (eq < 0 || dot < 0) {
        throw new IllegalArgumentException("rule '" + rule + "' is not TOOL.ARG=VALUE");
      }
      String tool = rule.substring(0, dot).strip();
      String argument = rule.substring(dot + 1, eq).strip();
      checkTool(tool, rule);
      if (argument.isEmpty()) {
        throw new IllegalArgumentException("rule '" + rule + "' names no argument");
      }
      sets.add(new Set(rule, tool, argument, value(rule.substring(eq + 1).strip())));
    }
    return new HookRules(halts, sets);
  }

  /** Whether there are no rules. */
  public boolean isEmpty() {
    return halts.isEmpty() && sets.isEmpty();
  }

  @Override
  public Decision beforeCall(String tool, JsonNode arguments) {
    String text = arguments.toString();
    for (Halt h : halts) {
      if (matches(h.tool(), tool)
          && (h.arguments() == null || h.arguments().matcher(text).find())) {
        return Decision.halt("halted by the hook rule '" + h.rule() + "' (agent.hooks.halt)");
      }
    }
    JsonNode out = arguments;
    for (Set s : sets) {
      if (matches(s.tool(), tool) && out.isObject()) {
        ObjectNode copy = (ObjectNode) out.deepCopy();
        copy.set(s.argument(), s.value());
        out = copy;
      }
    }
    return out == arguments ? Decision.proceed(arguments) : Decision.rewrite(out);
  }

  private static boolean matches(String pattern, String tool) {
    return pattern.endsWith("*")
        ? tool.startsWith(pattern.substring(0, pattern.length() - 1))
        : pattern.equals(tool);
  }

  private static void checkTool(String tool, String rule) {
    if (!tool.matches("[A-Za-z0-9_-]{1,64}\\*?|\\*")) {
      throw new IllegalArgumentException(
          "rule '" + rule + "' does not start with a tool name (or a prefix ending in *)");
    }
  }

  private static JsonNode value(String text) {
    try {
      JsonNode v = JSON.readTree(text);
      return v == null || v.isMissingNode() ? TextNode.valueOf(text) : v;
    } catch (JsonProcessingException e) {
      return TextNode.valueOf(text);
    }
  }

  private static List<String> split(String rules) {
    if (rules == null || rules.isBlank()) {
      return List.of();
    }
    return Arrays.stream(rules.split(",")).map(String::strip).filter(r -> !r.isEmpty()).toList();
  }
}
