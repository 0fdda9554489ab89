package dev.brain.research.plan;

import dev.brain.research.plan.Concept.Role;
import java.util.List;
import java.util.regex.Pattern;

/** Decides the {@link QueryFamily} of a question from its wording and concepts. */
final class FamilyRules {
  private FamilyRules() {}

  private static final Pattern TITLE_CUE =
      Pattern.compile(
          "\\b(?:titled|called|named|the (?:article|page|post|note|pdf|paper|book|video|episode"
              + "|podcast|bookmark|link))\\b");
  private static final Pattern COMPARISON_CUE =
      Pattern.compile(
          "\\b(?:vs\\.?|versus|compare[ds]?|comparing|comparison|differen(?:ce|ces|t) between"
              + "|better than|worse than)\\b|^(?:which|what) is (?:better|faster|cheaper)\\b");
  private static final Pattern SELECTION_CUE =
      Pattern.compile(
          "\\b(?:should i (?:use|pick|choose|try|buy|get)|recommend(?:ed|ation)?s?|alternatives?"
              + " (?:to|for)|best\\b|which\\b)");
  private static final Pattern SOFTWARE_CUE =
      Pattern.compile(
          "\\b(?:github|gitlab|repo|repos|repository|crate|npm|pypi|package|library|sdk"
              + "|open[- ]source|source code)\\b|\\b[\\w.-]+/[a-z][\\w.-]+\\b");
  private static final Pattern TIMELINE_CUE =
      Pattern.compile(
          "^when\\b|\\bwhen (?:did|was|were|do|does|is)\\b|\\bhistory of\\b|\\btimeline\\b"
              + "|\\bover time\\b|\\bevolution\\b|\\bhow (?:has|have|did) .+ (?:change|evolve)"
              + "|\\bsince (?:19|20)\\d\\d\\b|\\bchronolog");
  private static final Pattern PERSON_CUE =
      Pattern.compile("^who\\b|\\bwho (?:is|was|were|did|won|killed|said)\\b|\\bwhat happened\\b");
  private static final Pattern MEDIA_CUE =
      Pattern.compile("\\b(?:say|said|says|talk|talked|mention|mentioned|discuss|discussed)\\b");

  static QueryFamily family(
      QuestionText qt,
      boolean corrective,
      String lower,
      Extracted extracted,
      List<Concept> concepts) {
    if (corrective) {
      return QueryFamily.CORRECTIVE_FOLLOW_UP;
    }
    if (extracted.hasLookup() || !extracted.quoted.isEmpty() && TITLE_CUE.matcher(lower).find()) {
      return QueryFamily.EXACT_TITLE_SOURCE_LOOKUP;
    }
    if (qt.overviewPrefix()) {
      return QueryFamily.ENTITY_TOPIC_OVERVIEW;
    }
    if (COMPARISON_CUE.matcher(lower).find()) {
      return QueryFamily.COMPARISON;
    }
    if (hasHint(concepts, "transcript", "ocr")
        || MEDIA_CUE.matcher(lower).find() && hasRole(concepts, Role.SOURCE_HINT)) {
      return QueryFamily.TRANSCRIPT_OCR_LOOKUP;
    }
    if (SELECTION_CUE.matcher(lower).find() && mentionsSelectionObject(lower)) {
      return QueryFamily.TOOL_MODEL_SELECTION;
    }
    if (SOFTWARE_CUE.matcher(lower).find() && !isDateLike(lower)) {
      return QueryFamily.SOFTWARE_PROJECT_LOOKUP;
    }
    if (TIMELINE_CUE.matcher(lower).find()) {
      return QueryFamily.TIMELINE_HISTORY;
    }
    if (PERSON_CUE.matcher(lower).find() || namedPersonWithEvent(lower, concepts)) {
      return QueryFamily.PERSON_EVENT_LOOKUP;
    }
    if (!extracted.tags.isEmpty() || isBareTopic(lower, concepts)) {
      return QueryFamily.ENTITY_TOPIC_OVERVIEW;
    }
    return QueryFamily.FACT_LOOKUP;
  }

  private static boolean hasHint(List<Concept> concepts, String... types) {
    for (Concept c : concepts) {
      String hint = Vocabulary.SOURCE_HINTS.get(c.preferred());
      if (c.role() == Role.SOURCE_HINT && hint != null && List.of(types).contains(hint)) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasRole(List<Concept> concepts, Role role) {
    return concepts.stream().anyMatch(c -> c.role() == role);
  }

  private static boolean mentionsSelectionObject(String lower) {
    return Words.lowerWords(lower).stream().anyMatch(Vocabulary.SELECTION_OBJECTS::contains)
        || lower.contains("alternative")
        || lower.contains("recommend");
  }

  private static boolean isDateLike(String lower) {
    return lower.matches(".*\\b\\d{1,4}/\\d{1,2}(?:/\\d{1,4})?\\b.*") && !lower.contains("github");
  }

  private static boolean namedPersonWithEvent(String lower, List<Concept> concepts) {
    boolean person =
        concepts.stream()
            .anyMatch(c -> c.role() == Role.ENTITY && c.preferred().split(" ").length >= 2);
    return person && Words.lowerWords(lower).stream().anyMatch(Vocabulary.EVENT_WORDS::contains);
  }

  /**
   * A bare noun phrase: no question word, not opening with a verb, at most three required concepts.
   * A short phrase opening with a verb is an instruction, a task ("install zola on alpine", "reload
   * config without restarting editor") asking for the one passage that says how, not an overview of
   * what the top rows say.
   */
  private static boolean isBareTopic(String lower, List<Concept> concepts) {
    List<String> words = Words.lowerWords(lower);
    boolean asks = words.stream().anyMatch(StopWords.QUESTION::contains) || lower.contains("?");
    long required = concepts.stream().filter(Concept::required).count();
    return !asks && required <= 3 && words.size() <= 5 && !PartsOfSpeech.of(lower).opensWithVerb();
  }
}
