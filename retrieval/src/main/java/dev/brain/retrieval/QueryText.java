package dev.brain.retrieval;

import dev.brain.index.importer.Tags;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

/**
 * A query taken apart once for every lane: its analyzed terms (with the words as typed, for
 * matched/missing terms) and its tag aliases.
 *
 * @param text the query as given
 * @param terms analyzed term -> the query word it came from (lower-cased), in query order,
 *     duplicates dropped
 * @param sequence analyzed terms in query order, duplicates kept (for phrase checks)
 * @param tagAliases tag forms of the query's word n-grams of up to {@value #MAX_ALIAS_WORDS} words,
 *     longest first
 */
record QueryText(
    String text, Map<String, String> terms, List<String> sequence, List<String> tagAliases) {

  /** Longest word n-gram turned into a tag alias. */
  static final int MAX_ALIAS_WORDS = 3;

  // Tag words keep inner hyphens, slashes and underscores (home-espresso, coffee/espresso).
  private static final Pattern WORD_SEPARATORS = Pattern.compile("[^\\p{L}\\p{N}_/#-]+");

  static QueryText parse(String query, Analyzer analyzer) {
    var terms = new LinkedHashMap<String, String>();
    var sequence = new ArrayList<String>();
    for (Analysis.Token t : Analysis.tokens(analyzer, query)) {
      sequence.add(t.term());
      terms.putIfAbsent(t.term(), query.substring(t.start(), t.end()).toLowerCase(Locale.ROOT));
    }
    return new QueryText(query, terms, sequence, tagAliases(query));
  }

  /** Whether the query has any searchable term once stop words are gone. */
  boolean hasTerms() {
    return !terms.isEmpty();
  }

  /** The query words as typed (lower-cased) whose analyzed forms are in {@code present}. */
  List<String> matched(Set<String> present) {
    return terms.entrySet().stream()
        .filter(e -> present.contains(e.getKey()))
        .map(Map.Entry::getValue)
        .toList();
  }

  /** The query words as typed (lower-cased) whose analyzed forms are not in {@code present}. */
  List<String> missing(Set<String> present) {
    return terms.entrySet().stream()
        .filter(e -> !present.contains(e.getKey()))
        .map(Map.Entry::getValue)
        .toList();
  }

  /**
   * The tags a query could mean: every run of 1 to 3 consecutive words, normalized like user tags
   * ({@code "Mark Carney"} -> {@code mark-carney}, {@code mark}, {@code carney}). Single stop words
   * are not aliases. Longest first.
   */
  static List<String> tagAliases(String query) {
    List<String> words = new ArrayList<>();
    for (String w : WORD_SEPARATORS.split(query.toLowerCase(Locale.ROOT))) {
      String tag = Tags.normalize(w);
      if (!tag.isEmpty()) {
        words.add(tag);
      }
    }
    Set<String> aliases = new LinkedHashSet<>();
    for (int n = Math.min(MAX_ALIAS_WORDS, words.size()); n >= 1; n--) {
      for (int i = 0; i + n <= words.size(); i++) {
        List<String> gram = words.subList(i, i + n);
        if (n == 1 && EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.contains(gram.get(0))) {
          continue;
        }
        aliases.add(String.join("-", gram));
      }
    }
    return List.copyOf(aliases);
  }

  /** Number of words in a tag alias. */
  static int aliasWords(String alias) {
    return alias.split("-").length;
  }
}
