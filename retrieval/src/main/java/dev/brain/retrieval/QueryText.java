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
 * @param searchText the query's words without question filler ({@link #FILLER}), what the BM25 lane
 *     searches for
 * @param terms analyzed term -> the query word it came from (lower-cased), in query order,
 *     duplicates and filler dropped
 * @param sequence analyzed terms in query order, duplicates kept (for phrase checks)
 * @param tagAliases tag forms of the query's word n-grams of up to {@value #MAX_ALIAS_WORDS} words,
 *     longest first
 */
public record QueryText(
    String text,
    String searchText,
    Map<String, String> terms,
    List<String> sequence,
    List<String> tagAliases) {

  /** Longest word n-gram turned into a tag alias. */
  static final int MAX_ALIAS_WORDS = 3;

  // Tag words keep inner hyphens, slashes and underscores (home-espresso, coffee/espresso).
  private static final Pattern WORD_SEPARATORS = Pattern.compile("[^\\p{L}\\p{N}_/#-]+");

  /**
   * Words of questions that say nothing about the topic ("why can't I ...", "how did my ...") and
   * that Lucene's English stop set keeps. They are dropped from the query's terms, unless nothing
   * else is left, so they neither match every note in BM25 nor show up as missing terms.
   */
  static final Set<String> FILLER =
      Set.of(
          "i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "myself", "we", "our", "us", "you",
          "your", "he", "she", "him", "her", "his", "its", "what", "which", "who", "whom", "whose",
          "why", "how", "when", "where", "do", "does", "did", "don't", "doesn't", "didn't", "can",
          "can't", "cannot", "could", "should", "would", "have", "has", "had", "am", "been", "were",
          "get", "got");

  /**
   * Query words searched at most. BM25 builds a clause per word and field, and Lucene refuses
   * queries of more than 1,024 clauses; a pasted page of text is searched by its first words.
   */
  static final int MAX_TERMS = 128;

  /** Query words turned into tag aliases at most. */
  static final int MAX_ALIAS_SOURCE_WORDS = 64;

  static QueryText parse(String query, Analyzer analyzer) {
    List<Analysis.Token> tokens = Analysis.tokens(analyzer, query);
    List<Analysis.Token> kept =
        tokens.stream().filter(t -> !FILLER.contains(surface(query, t))).toList();
    if (kept.isEmpty()) {
      kept = tokens;
    }
    boolean truncated = kept.size() > MAX_TERMS;
    if (truncated) {
      kept = kept.subList(0, MAX_TERMS);
    }
    var terms = new LinkedHashMap<String, String>();
    var sequence = new ArrayList<String>();
    var words = new ArrayList<String>();
    for (Analysis.Token t : kept) {
      sequence.add(t.term());
      terms.putIfAbsent(t.term(), surface(query, t));
      words.add(query.substring(t.start(), t.end()));
    }
    String searchText =
        kept.size() == tokens.size() && !truncated ? query : String.join(" ", words);
    return new QueryText(query, searchText, terms, sequence, tagAliases(query));
  }

  /** This query with only {@code aliases} as its tag aliases (those the index holds). */
  QueryText withTagAliases(List<String> aliases) {
    return new QueryText(text, searchText, terms, sequence, List.copyOf(aliases));
  }

  private static String surface(String query, Analysis.Token t) {
    return query.substring(t.start(), t.end()).toLowerCase(Locale.ROOT);
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
   * ({@code "Mark Carney"} -> {@code mark-carney}, {@code mark}, {@code carney}). Single stop and
   * filler words are not aliases. Longest first.
   */
  static List<String> tagAliases(String query) {
    List<String> words = new ArrayList<>();
    for (String w : WORD_SEPARATORS.split(query.toLowerCase(Locale.ROOT))) {
      String tag = Tags.normalize(w);
      if (!tag.isEmpty() && words.size() < MAX_ALIAS_SOURCE_WORDS) {
        words.add(tag);
      }
    }
    Set<String> aliases = new LinkedHashSet<>();
    for (int n = Math.min(MAX_ALIAS_WORDS, words.size()); n >= 1; n--) {
      for (int i = 0; i + n <= words.size(); i++) {
        List<String> gram = words.subList(i, i + n);
        if (n == 1 && isStopWord(gram.get(0))) {
          continue;
        }
        aliases.add(String.join("-", gram));
      }
    }
    return List.copyOf(aliases);
  }

  private static boolean isStopWord(String word) {
    return EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.contains(word) || FILLER.contains(word);
  }

  /** Number of words in a tag alias. */
  static int aliasWords(String alias) {
    return alias.split("-").length;
  }
}
