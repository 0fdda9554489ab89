package dev.brain.research.plan;

import dev.brain.research.plan.Concept.Role;
import dev.brain.research.plan.Words.Token;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A question's concepts for {@link QueryAnalyzer}, in question order, deduplicated by key, minus
 * negated words: entities (capitalized runs, acronyms), phrases of the synonym file and single
 * words, each with its role and synonym terms.
 */
final class Concepts {
  private static final Set<String> CONNECTORS = Set.of("of", "the", "a", "and", "de", "van", "von");

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
    String joined = joined(preferred);
    if (joined != null && !terms.contains(joined)) {
      terms =
          java.util.stream.Stream.concat(terms.stream(), java.util.stream.Stream.of(joined))
              .toList();
    }
    byKey.put(key, new Concept(key, preferred, terms, isRequired(role), role));
  }

  private static final java.util.regex.Pattern HYPHEN =
      java.util.regex.Pattern.compile("(?<=\\p{L})-(?=\\p{L})");

  /**
   * {@code form} with its words hyphenated between letters written as one ("air-gapped" as
   * "airgapped", "an auto-save delay" as "an autosave delay"), else null when it has none: texts
   * write such compounds either way, and the index reads the hyphenated form as separate words.
   */
  static String joined(String form) {
    String joined = HYPHEN.matcher(form).replaceAll("");
    return joined.equals(form) ? null : joined;
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
        new ArrayList<>(byKey.values())
            .subList(0, Math.min(QueryAnalyzer.MAX_CONCEPTS, byKey.size()));
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

  private static boolean isRequired(Role role) {
    return role == Role.ENTITY || role == Role.SUBJECT || role == Role.TAG;
  }

  /** Entities (capitalized runs, acronyms), known phrases, then single words. */
  void addWords(String text) {
    List<Token> tokens = Words.tokens(text);
    int i = 0;
    while (i < tokens.size()) {
      int run = nameRun(tokens, i);
      if (run > 0) {
        add(entityText(tokens.subList(i, i + run)), Role.ENTITY);
        i += run;
        continue;
      }
      Token t = tokens.get(i);
      int phrase = phraseLength(tokens, i);
      if (phrase > 1) {
        add(phraseText(tokens, i, phrase), Role.SUBJECT);
        i += phrase;
        continue;
      }
      addWord(t.lower());
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

  private void addWord(String w) {
    if (StopWords.isNoise(w)) {
      return;
    }
    if (Vocabulary.SOURCE_HINTS.containsKey(w)) {
      add(w, Role.SOURCE_HINT);
    } else if (Vocabulary.isYear(w) || Vocabulary.TIME_WORDS.contains(w)) {
      add(w, Role.TIME);
    } else if (Vocabulary.MODIFIERS.contains(w) || w.length() == 1) {
      add(w, Role.MODIFIER);
    } else {
      add(w, Role.SUBJECT);
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
}
