package dev.brain.research.plan;

import dev.brain.index.importer.Tags;
import dev.brain.research.plan.Concept.Role;
import dev.brain.research.plan.Words.Token;
import dev.brain.retrieval.InvalidSearchException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The deterministic query strategy: turns a question into concepts (required or optional, with
 * synonym families), a query family, tag queries, a topic and up to {@value QueryPlan#MAX_VARIANTS}
 * search variants, each with its reason. Works with no model at all; a model planner only adds to
 * it.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class QueryAnalyzer {
  private QueryAnalyzer() {}

  /** Most concepts taken from one question. */
  static final int MAX_CONCEPTS = 12;

  private static final Pattern FOLLOW_UP_CUE =
      Pattern.compile(
          "^(?:and|also|what about|how about|and what about)\\b|\\b(?:it|its|that|this|they"
              + "|them|those|these|there)\\b");

  /** Analyzes a question (plain or chat-shaped). */
  public static Strategy analyze(String question, boolean semantic) {
    if (question == null || question.isBlank()) {
      throw InvalidSearchException.empty("question", "the question is empty; ask something");
    }
    QuestionText qt = QuestionText.parse(question);
    FollowUp resolved = FollowUp.resolve(qt);
    if (resolved != null) {
      return analyze(resolved.resolvedQuestion(), semantic)
          .asFollowUp(question, qt.current(), resolved);
    }
    String core = qt.core().isBlank() ? qt.current() : qt.core();
    var extracted = new Extracted(core);
    var concepts = new Concepts(qt.negated());
    extracted.quoted.forEach(q -> concepts.add(q, Role.ENTITY));
    extracted.tags.forEach(t -> concepts.add(t, Role.TAG));
    concepts.addWords(extracted.rest);
    boolean corrective = qt.corrective() && qt.inChat();
    boolean followUp = !corrective && qt.inChat() && needsContext(core, concepts);
    String previous = FollowUp.previousStandalone(qt);
    List<String> inherited = followUp ? inherit(concepts, core, previous) : List.of();
    if (corrective || followUp) {
      addContext(concepts, previous);
    }
    List<Concept> list = concepts.finish();
    if (list.isEmpty()) {
      throw InvalidSearchException.empty(
          "question",
          "'"
              + qt.current()
              + "' has no searchable words once filler and stop words are removed; name what"
              + " to look for");
    }
    String lowerCore = core.toLowerCase(Locale.ROOT);
    QueryFamily family = FamilyRules.family(qt, corrective, lowerCore, extracted, list);
    String textQuery = textQuery(list);
    String topic = family == QueryFamily.ENTITY_TOPIC_OVERVIEW ? topic(list, extracted) : null;
    var variants =
        new VariantBuilder(semantic)
            .build(family, textQuery, qt, core, list, extracted, topic, corrective, followUp);
    return new Strategy(
        question,
        qt.current(),
        textQuery,
        family,
        queryTerms(list),
        tagQueries(extracted, core),
        list,
        variants,
        topic,
        hints(list),
        extracted.keys,
        inherited.isEmpty()
            ? null
            : FollowUp.kept(
                qt.current(), previous, inherited, concepts.requiredCount() == inherited.size()));
  }

  private static boolean needsContext(String core, Concepts concepts) {
    return concepts.requiredCount() <= 1
        || FOLLOW_UP_CUE.matcher(core.toLowerCase(Locale.ROOT)).find();
  }

  /**
   * A follow-up keeps the earlier question's intent: with no required concept of its own ("and
   * why?") it inherits every required concept of the previous question; one referring back with a
   * pronoun ("what did it cost?") inherits the names and tags it refers to. A follow-up naming new
   * concepts otherwise keeps the earlier words as optional context only.
   *
   * @return the keys of the inherited concepts
   */
  private static List<String> inherit(Concepts concepts, String core, String previous) {
    boolean none = concepts.requiredCount() == 0;
    if (previous == null || (!none && !FollowUp.refersBack(core))) {
      return List.of();
    }
    var out = new ArrayList<String>();
    for (Concept c : FollowUp.requiredOf(previous)) {
      boolean name = c.role() == Role.ENTITY || c.role() == Role.TAG;
      if ((none || name) && !concepts.has(c.preferred())) {
        concepts.add(c.preferred(), c.role());
        out.add(c.key());
      }
    }
    return out;
  }

  /**
   * Words of the previous question, as optional context (words a correction rules out stay out).
   */
  private static void addContext(Concepts concepts, String previous) {
    if (previous == null) {
      return;
    }
    QuestionText prior = QuestionText.parse(previous);
    for (Token t : Words.tokens(prior.core().isBlank() ? prior.current() : prior.core())) {
      String w = t.lower();
      if (!StopWords.isNoise(w) && !concepts.has(w) && w.length() > 1) {
        concepts.add(w, Role.CONTEXT);
      }
    }
  }

  private static String textQuery(List<Concept> concepts) {
    return join(concepts, c -> c.role() != Role.CONTEXT);
  }

  private static List<String> queryTerms(List<Concept> concepts) {
    var terms = new LinkedHashSet<String>();
    for (Concept c : concepts) {
      for (String w : c.preferred().split("[\\s]+")) {
        if (!w.isBlank() && !StopWords.STOP.contains(w)) {
          terms.add(w);
        }
      }
    }
    return List.copyOf(terms);
  }

  /** The topic of a broad question: its tag, else its words without the asking and stop words. */
  private static String topic(List<Concept> concepts, Extracted extracted) {
    if (!extracted.tags.isEmpty()) {
      return extracted.tags.get(0);
    }
    List<Token> tokens = Words.tokens(extracted.rest);
    int from = 0;
    int to = tokens.size();
    while (from < to && StopWords.isNoise(tokens.get(from).lower())) {
      from++;
    }
    while (to > from && StopWords.isNoise(tokens.get(to - 1).lower())) {
      to--;
    }
    if (from < to && to - from <= 6) {
      return String.join(" ", tokens.subList(from, to).stream().map(Token::lower).toList());
    }
    String required = join(concepts, Concept::required);
    return required.isBlank() ? null : required;
  }

  /** Explicit tags, then tag forms of 1-3 word runs of the question with a content word. */
  private static List<String> tagQueries(Extracted extracted, String core) {
    var out = new LinkedHashSet<>(extracted.tags);
    List<String> words = new ArrayList<>();
    for (Token t : Words.tokens(extracted.rest)) {
      words.add(t.lower());
    }
    for (int n = Math.min(3, words.size()); n >= 1; n--) {
      for (int i = 0; i + n <= words.size(); i++) {
        List<String> gram = words.subList(i, i + n);
        if (isTagGram(gram)) {
          out.add(Tags.normalize(String.join("-", gram)));
        }
      }
    }
    return out.stream().filter(t -> !t.isEmpty()).limit(12).toList();
  }

  private static boolean isTagGram(List<String> gram) {
    String first = gram.get(0);
    String last = gram.get(gram.size() - 1);
    if (StopWords.isNoise(first) || StopWords.isNoise(last)) {
      return false;
    }
    return gram.stream()
        .noneMatch(w -> StopWords.QUESTION.contains(w) || StopWords.FILLER.contains(w));
  }

  private static Set<String> hints(List<Concept> concepts) {
    var out = new LinkedHashSet<String>();
    for (Concept c : concepts) {
      if (c.role() == Role.SOURCE_HINT) {
        out.add(Vocabulary.SOURCE_HINTS.get(c.preferred()));
      }
    }
    return out;
  }

  static String join(List<Concept> concepts, java.util.function.Predicate<Concept> keep) {
    var parts = new ArrayList<String>();
    for (Concept c : concepts) {
      if (keep.test(c)) {
        parts.add(c.preferred());
      }
    }
    return String.join(" ", parts);
  }

  static String contentWords(String text) {
    var parts = new ArrayList<String>();
    for (Token t : Words.tokens(text)) {
      if (!StopWords.isNoise(t.lower()) && !Vocabulary.MODIFIERS.contains(t.lower())) {
        parts.add(t.lower());
      }
    }
    return String.join(" ", parts);
  }
}
