package dev.brain.research.plan;

import dev.brain.research.plan.Concept.Role;
import dev.brain.research.plan.Strategy.Variant;
import dev.brain.retrieval.Lane;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Builds the search variants of a question (at most {@value QueryPlan#MAX_VARIANTS}): the main
 * search, the family's own variant, the question as asked for the semantic lane, required concepts
 * only, synonyms, names alone and, in a chat, the previous question's words. Duplicates are
 * dropped; every variant says why it exists.
 */
final class VariantBuilder {
  private final boolean semantic;
  private final List<Variant> out = new ArrayList<>();

  VariantBuilder(boolean semantic) {
    this.semantic = semantic;
  }

  List<Variant> build(
      QueryFamily family,
      String textQuery,
      QuestionText qt,
      String core,
      List<Concept> concepts,
      Extracted extracted,
      String topic,
      boolean corrective,
      boolean followUp) {
    add(
        Variant.of(
            textQuery,
            corrective
                ? "the correction alone; earlier evidence is not reused"
                : "the question without filler and stop words",
            1.0));
    familyVariants(family, topic, core, concepts, extracted);
    if (semantic && !corrective) {
      add(
          new Variant(
              qt.current(),
              "the question as asked (semantic lane only)",
              Set.of(Lane.VECTOR),
              0.8,
              "deterministic"));
    }
    add(
        Variant.of(
            QueryAnalyzer.join(concepts, c -> c.required() && c.role() != Role.CONTEXT),
            "required concepts only",
            0.8));
    synonyms(concepts);
    for (Concept c : concepts) {
      if (c.role() == Role.ENTITY && concepts.size() > 1) {
        add(Variant.of(c.preferred(), "the name alone: " + c.preferred(), 0.6));
      }
    }
    if (corrective || followUp) {
      add(
          Variant.of(
              textQuery + " " + QueryAnalyzer.join(concepts, c -> c.role() == Role.CONTEXT),
              corrective
                  ? "the correction applied to the previous question"
                  : "with the previous question's words for context",
              corrective ? 0.8 : 0.7));
    }
    return List.copyOf(out.subList(0, Math.min(QueryPlan.MAX_VARIANTS, out.size())));
  }

  private void familyVariants(
      QueryFamily family, String topic, String core, List<Concept> concepts, Extracted extracted) {
    switch (family) {
      case ENTITY_TOPIC_OVERVIEW -> {
        if (topic != null) {
          add(Variant.of(topic, "the topic alone", 0.9));
        }
      }
      case TRANSCRIPT_OCR_LOOKUP ->
          add(
              Variant.of(
                  QueryAnalyzer.join(
                      concepts, c -> c.role() != Role.SOURCE_HINT && c.role() != Role.CONTEXT),
                  "the claim words without the media words",
                  0.9));
      case COMPARISON -> comparisonSides(core);
      case TIMELINE_HISTORY ->
          add(
              Variant.of(
                  QueryAnalyzer.join(
                      concepts, c -> c.role() != Role.TIME && c.role() != Role.MODIFIER),
                  "without time words",
                  0.8));
      case PERSON_EVENT_LOOKUP -> {
        for (Concept c : concepts) {
          if (c.role() == Role.ENTITY) {
            add(Variant.of(c.preferred(), "the person or event name alone", 0.8));
          }
        }
      }
      case TOOL_MODEL_SELECTION ->
          add(
              Variant.of(
                  QueryAnalyzer.join(concepts, c -> c.required()),
                  "what is being chosen, without the selection words",
                  0.8));
      case SOFTWARE_PROJECT_LOOKUP -> {
        // The words a project page carries, each once: "GitHub" asked for is already there.
        var words = new ArrayList<String>();
        for (String w :
            (QueryAnalyzer.join(concepts, Concept::required) + " github repository").split(" ")) {
          if (!w.isEmpty() && !words.contains(w)) {
            words.add(w);
          }
        }
        add(Variant.of(String.join(" ", words), "as a software project", 0.7));
      }
      case EXACT_TITLE_SOURCE_LOOKUP -> {
        for (String q : extracted.quoted) {
          add(Variant.of("\"" + q + "\"", "the exact title phrase", 1.0));
        }
      }
      case CORRECTIVE_FOLLOW_UP, FACT_LOOKUP -> {
        // The main search is the family's variant.
      }
    }
  }

  private void comparisonSides(String core) {
    String[] sides =
        core.toLowerCase(Locale.ROOT)
            .split("\\b(?:vs\\.?|versus|or|and|compared (?:to|with)|than|between)\\b");
    int added = 0;
    for (String side : sides) {
      String words = QueryAnalyzer.contentWords(side);
      if (!words.isBlank() && added < 2) {
        add(Variant.of(words, "one side of the comparison: " + words, 0.7));
        added++;
      }
    }
  }

  private void synonyms(List<Concept> concepts) {
    var parts = new ArrayList<String>();
    var expanded = new ArrayList<String>();
    for (Concept c : concepts) {
      if (c.role() == Role.CONTEXT) {
        continue;
      }
      if (!parts.contains(c.preferred())) {
        parts.add(c.preferred());
      }
      // The compound written as one ("airgapped" for "air-gapped") matches what the search finds;
      // no synonyms variant is added for it alone.
      String joined = Concepts.joined(c.preferred());
      List<String> synonyms = Vocabulary.synonyms(c.preferred());
      List<String> others =
          c.terms().stream()
              .skip(1)
              .filter(t -> !t.equals(joined) || synonyms.contains(t))
              .toList();
      if (!others.isEmpty()) {
        others.stream().filter(t -> !parts.contains(t)).forEach(parts::add);
        expanded.add(c.preferred() + " -> " + String.join(", ", others));
      }
    }
    if (!expanded.isEmpty()) {
      add(Variant.of(String.join(" ", parts), "synonyms: " + String.join("; ", expanded), 0.6));
    }
  }

  private void add(Variant v) {
    if (v.query().isBlank()) {
      return;
    }
    String norm = v.query().strip().toLowerCase(Locale.ROOT);
    boolean seen =
        out.stream()
            .anyMatch(
                o ->
                    o.query().strip().toLowerCase(Locale.ROOT).equals(norm)
                        && Objects.equals(o.lanes(), v.lanes()));
    if (!seen) {
      out.add(v);
    }
  }
}
