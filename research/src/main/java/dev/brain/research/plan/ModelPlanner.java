package dev.brain.research.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.models.chat.ChatException;
import dev.brain.models.chat.ChatListener;
import dev.brain.models.chat.ChatMessage;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatRequest;
import dev.brain.research.json.Json;
import dev.brain.research.plan.Concept.Role;
import dev.brain.research.plan.Strategy.Variant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The optional model planner: asks a chat model for compact JSON (concepts with synonyms, search
 * variants) and never for an answer. Its output is sanitized (control characters, markup and record
 * keys removed), bounded ({@value #MAX_CONCEPTS} concepts of {@value #MAX_TERMS} terms, {@value
 * #MAX_VARIANTS} variants, short strings) and merged into the deterministic strategy: its terms
 * extend matching deterministic concepts; concepts only the model proposed are added as optional
 * {@code expansion} concepts and never become required. Any failure leaves the deterministic
 * strategy as it was, with {@code planner_error} saying why.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class ModelPlanner {
  private ModelPlanner() {}

  static final int MAX_CONCEPTS = 6;
  static final int MAX_TERMS = 5;
  static final int MAX_VARIANTS = 4;

  /** Most terms a merged concept keeps. */
  static final int MAX_MERGED_TERMS = 8;

  /** Most variant slots the model's variants may take from the deterministic ones. */
  static final int MODEL_VARIANT_SLOTS = 3;

  /** Weight of a model variant when the variants' rankings are combined. */
  static final double MODEL_VARIANT_WEIGHT = 0.6;

  private static final ObjectMapper JSON = Json.mapper();

  /**
   * The outcome of planning.
   *
   * @param strategy the merged strategy, or the deterministic one on failure
   * @param info planner, model and error for the query plan
   * @param input the text sent to the model
   * @param output the model's raw answer, or {@code null} when it gave none
   */
  public record Outcome(Strategy strategy, PlannerInfo info, String input, String output) {}

  public static Outcome plan(ChatModel model, Strategy base, Duration timeout) {
    String input = input(base);
    var request =
        new ChatRequest(
            List.of(ChatMessage.system(PlannerPrompt.SYSTEM), ChatMessage.user(input)),
            timeout,
            true,
            0.0,
            400,
            List.of());
    String output;
    try {
      output = model.chat(request, ChatListener.NONE).content();
    } catch (ChatException e) {
      String why = e.kind().name().toLowerCase(Locale.ROOT) + ": " + e.getMessage();
      return fallback(base, model, why, input, null);
    }
    JsonNode plan = parse(output);
    if (plan == null) {
      return fallback(base, model, "the model returned no JSON object", input, output);
    }
    List<Concept> concepts = merge(base.concepts(), plan.path("concepts"));
    List<Variant> variants = variants(base.variants(), plan.path("variants"));
    if (concepts.equals(base.concepts()) && variants.equals(base.variants())) {
      return fallback(base, model, "the model plan added nothing usable", input, output);
    }
    return new Outcome(
        base.with(concepts, variants),
        new PlannerInfo(QueryPlan.MODEL_ASSISTED, model.id(), null),
        input,
        output);
  }

  private static Outcome fallback(
      Strategy base, ChatModel model, String error, String input, String output) {
    return new Outcome(
        base, new PlannerInfo(QueryPlan.DETERMINISTIC, model.id(), error), input, output);
  }

  private static String input(Strategy base) {
    var concepts = new ArrayList<String>();
    for (Concept c : base.concepts()) {
      concepts.add(c.preferred() + (c.required() ? " (required)" : ""));
    }
    // A follow-up is planned as the question it was read as, never as its bare fragment.
    String question =
        base.followUp() == null ? base.currentQuestion() : base.followUp().resolvedQuestion();
    return "Question: "
        + question.strip()
        + "\nConcepts found so far: "
        + String.join(", ", concepts)
        + "\nReturn the JSON plan only.";
  }

  /** The first JSON object in the text (models sometimes wrap it in prose or code fences). */
  public static JsonNode parse(String output) {
    if (output == null) {
      return null;
    }
    int start = output.indexOf('{');
    int end = output.lastIndexOf('}');
    if (start < 0 || end <= start) {
      return null;
    }
    try {
      JsonNode node = JSON.readTree(output.substring(start, end + 1));
      return node != null && node.isObject() ? node : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static List<Concept> merge(List<Concept> base, JsonNode proposed) {
    var out = new ArrayList<>(base);
    if (!proposed.isArray()) {
      return out;
    }
    int taken = 0;
    for (JsonNode node : proposed) {
      if (taken++ >= MAX_CONCEPTS) {
        break;
      }
      String preferred = clean(node.path("preferred").asText(""), 60);
      var terms = new LinkedHashSet<String>();
      if (!preferred.isEmpty()) {
        terms.add(preferred);
      }
      int t = 0;
      for (JsonNode term : node.path("terms")) {
        String s = clean(term.asText(""), 60);
        if (!s.isEmpty() && t++ < MAX_TERMS) {
          terms.add(s);
        }
      }
      if (!terms.isEmpty()) {
        addOrExtend(out, preferred.isEmpty() ? terms.iterator().next() : preferred, terms);
      }
    }
    return List.copyOf(out);
  }

  private static void addOrExtend(List<Concept> concepts, String preferred, Set<String> terms) {
    for (int i = 0; i < concepts.size(); i++) {
      Concept c = concepts.get(i);
      if (overlaps(c, terms)) {
        var merged = new LinkedHashSet<>(c.terms());
        terms.forEach(merged::add);
        List<String> capped = merged.stream().limit(MAX_MERGED_TERMS).toList();
        concepts.set(i, new Concept(c.key(), c.preferred(), capped, c.required(), c.role()));
        return;
      }
    }
    String key = Words.slug(preferred);
    if (key.isEmpty() || concepts.stream().anyMatch(c -> c.key().equals(key))) {
      return;
    }
    if (concepts.size() < QueryAnalyzer.MAX_CONCEPTS + MAX_CONCEPTS) {
      concepts.add(new Concept(key, preferred, List.copyOf(terms), false, Role.EXPANSION));
    }
  }

  private static boolean overlaps(Concept c, Set<String> terms) {
    for (String term : terms) {
      for (String existing : c.terms()) {
        if (Words.stem(term).equals(Words.stem(existing))) {
          return true;
        }
      }
    }
    return false;
  }

  private static List<Variant> variants(List<Variant> base, JsonNode proposed) {
    var model = new ArrayList<Variant>();
    if (proposed.isArray()) {
      for (JsonNode node : proposed) {
        String query = clean(node.path("query").asText(""), 120);
        String reason = clean(node.path("reason").asText(""), 120);
        if (!query.isEmpty() && model.size() < MAX_VARIANTS && !contains(base, query)) {
          model.add(
              new Variant(
                  query,
                  "model planner" + (reason.isEmpty() ? "" : ": " + reason),
                  null,
                  MODEL_VARIANT_WEIGHT,
                  "model"));
        }
      }
    }
    if (model.isEmpty()) {
      return base;
    }
    int slots = Math.min(MODEL_VARIANT_SLOTS, model.size());
    int keep = Math.min(base.size(), QueryPlan.MAX_VARIANTS - slots);
    var out = new ArrayList<>(base.subList(0, keep));
    for (Variant v : model) {
      if (out.size() < QueryPlan.MAX_VARIANTS) {
        out.add(v);
      }
    }
    return List.copyOf(out);
  }

  private static boolean contains(List<Variant> variants, String query) {
    return variants.stream().anyMatch(v -> v.query().equalsIgnoreCase(query));
  }

  /**
   * A model string made safe: control characters, markup and record keys removed, whitespace
   * collapsed, lower-cased, at most {@code max} characters.
   */
  static String clean(String s, int max) {
    String t = s.replaceAll("\\p{Cntrl}", " ");
    t = t.replaceAll("\\b(?:note|src|bm|feed-entry|doc):\\S*", " ");
    t = t.replaceAll("https?://\\S*", " ");
    t = t.replaceAll("[{}\\[\\]<>`\"*#|\\\\]", " ");
    t = t.replaceAll("\\s+", " ").strip().toLowerCase(Locale.ROOT);
    if (t.length() > max) {
      int space = t.lastIndexOf(' ', max);
      t = t.substring(0, space > 0 ? space : max).strip();
    }
    return t.chars().anyMatch(Character::isLetterOrDigit) ? t : "";
  }
}
