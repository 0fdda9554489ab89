package dev.brain.research.plan;

import dev.brain.index.importer.Tags;
import dev.brain.research.plan.Concept.Role;
import dev.brain.research.plan.Words.Token;
import dev.brain.retrieval.InvalidSearchException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
  private static final Set<String> CONNECTORS = Set.of("of", "the", "a", "and", "de", "van", "von");

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
    addWordConcepts(concepts, extracted.rest);
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

  /** Concepts in question order, deduplicated by key, minus negated words. */
  private static final class Concepts {
    private final Map<String, Concept> byKey = new LinkedHashMap<>();
    private final Set<String> negatedWords = new LinkedHashSet<>();

    Concepts(List<String> negated) {
      negated.forEach(n -> negatedWords.addAll(Words.lowerWords(n)));
    }

    void add(String form, Role role) {
      String preferred = form.strip().toLowerCase(Locale.ROOT);
      String key = Words.slug(preferred);
      if (key.isEmpty() || byKey.containsKey(key) || negatedWords.contains(preferred)) {
        return;
      }
      List<String> terms =
          role == Role.TAG
              ? tagTerms(preferred)
              : Vocabulary.synonyms(preferred).stream().limit(6).toList();
      byKey.put(key, new Concept(key, preferred, terms, isRequired(role), role));
    }

    boolean has(String form) {
      return byKey.containsKey(Words.slug(form));
    }

    int requiredCount() {
      return (int) byKey.values().stream().filter(Concept::required).count();
    }

    private static List<String> tagTerms(String tag) {
      String spaced = tag.replace('-', ' ').replace('/', ' ');
      return spaced.equals(tag) ? List.of(tag) : List.of(tag, spaced);
    }

    /** The concepts; promotes optional ones when none is required. */
    List<Concept> finish() {
      List<Concept> list =
          new ArrayList<>(byKey.values()).subList(0, Math.min(MAX_CONCEPTS, byKey.size()));
      if (list.stream().anyMatch(Concept::required)) {
        return List.copyOf(list);
      }
      for (Role promote : List.of(Role.MODIFIER, Role.TIME, Role.SOURCE_HINT)) {
        if (list.stream().anyMatch(c -> c.role() == promote)) {
          return list.stream().map(c -> c.role() == promote ? required(c) : c).toList();
        }
      }
      return List.copyOf(list);
    }

    private static Concept required(Concept c) {
      return new Concept(c.key(), c.preferred(), c.terms(), true, c.role());
    }
  }

  private static boolean isRequired(Role role) {
    return role == Role.ENTITY || role == Role.SUBJECT || role == Role.TAG;
  }

  /** Entities (capitalized runs, acronyms), known phrases, then single words. */
  private static void addWordConcepts(Concepts concepts, String text) {
    List<Token> tokens = Words.tokens(text);
    int i = 0;
    while (i < tokens.size()) {
      int run = nameRun(tokens, i);
      if (run > 0) {
        concepts.add(entityText(tokens.subList(i, i + run)), Role.ENTITY);
        i += run;
        continue;
      }
      Token t = tokens.get(i);
      int phrase = phraseLength(tokens, i);
      if (phrase > 1) {
        concepts.add(phraseText(tokens, i, phrase), Role.SUBJECT);
        i += phrase;
        continue;
      }
      addWord(concepts, t.lower());
      i++;
    }
  }

  /** Length (2 or 3) of a synonym-file phrase starting at {@code i}, or 0. */
  private static int phraseLength(List<Token> tokens, int i) {
    for (int n = 3; n >= 2; n--) {
      if (i + n <= tokens.size() && Vocabulary.synonyms(phraseText(tokens, i, n)).size() > 1) {
        return n;
      }
    }
    return 0;
  }

  private static String phraseText(List<Token> tokens, int i, int n) {
    var words = new ArrayList<String>();
    for (Token t : tokens.subList(i, i + n)) {
      words.add(t.lower());
    }
    return String.join(" ", words);
  }

  private static void addWord(Concepts concepts, String w) {
    if (StopWords.isNoise(w)) {
      return;
    }
    if (Vocabulary.SOURCE_HINTS.containsKey(w)) {
      concepts.add(w, Role.SOURCE_HINT);
    } else if (Vocabulary.isYear(w) || Vocabulary.TIME_WORDS.contains(w)) {
      concepts.add(w, Role.TIME);
    } else if (Vocabulary.MODIFIERS.contains(w) || w.length() == 1) {
      concepts.add(w, Role.MODIFIER);
    } else {
      concepts.add(w, Role.SUBJECT);
    }
  }

  /** Length of the run of name words starting at {@code i} (0 when none starts there). */
  private static int nameRun(List<Token> tokens, int i) {
    int start = i;
    // "The Soul of a New Machine": a capitalized article may open a title mid-sentence.
    if (tokens.get(i).lower().equals("the")
        && tokens.get(i).capitalized()
        && !tokens.get(i).sentenceStart()
        && i + 1 < tokens.size()
        && isNameWord(tokens, i + 1)) {
      i++;
    } else if (!isNameWord(tokens, i)) {
      return 0;
    }
    int end = i + 1;
    while (end < tokens.size()) {
      int next = end;
      while (next < tokens.size() && CONNECTORS.contains(tokens.get(next).lower())) {
        next++;
      }
      if (next < tokens.size() && isNameWord(tokens, next) && !tokens.get(next).sentenceStart()) {
        end = next + 1;
      } else {
        break;
      }
    }
    return end - start;
  }

  private static boolean isNameWord(List<Token> tokens, int i) {
    Token t = tokens.get(i);
    if (!t.capitalized() || t.lower().equals("i") || StopWords.isNoise(t.lower())) {
      return t.acronym() && !StopWords.isNoise(t.lower()) && !t.lower().equals("i");
    }
    if (t.acronym() || !t.sentenceStart()) {
      return true;
    }
    // A capitalized first word is a name only when a capitalized word follows it.
    return i + 1 < tokens.size()
        && tokens.get(i + 1).capitalized()
        && !tokens.get(i + 1).sentenceStart()
        && !StopWords.isNoise(tokens.get(i + 1).lower());
  }

  private static String entityText(List<Token> run) {
    var words = new ArrayList<String>();
    for (Token t : run) {
      words.add(t.text());
    }
    if (words.size() > 1 && words.get(0).equalsIgnoreCase("the")) {
      words.remove(0);
    }
    return String.join(" ", words);
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
