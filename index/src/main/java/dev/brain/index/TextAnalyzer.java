package dev.brain.index;

import java.util.regex.Pattern;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.StopwordAnalyzerBase;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.miscellaneous.LengthFilter;
import org.apache.lucene.analysis.pattern.PatternReplaceFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * The analyzer of the index's text fields: Lucene's {@link EnglishAnalyzer} chain (standard
 * tokenizer, possessives, lower case, English stop words, Porter stemming) with one step added
 * after the tokenizer: underscores at either end of a token are dropped. Unicode word breaking
 * joins underscores to the letters beside them, so Markdown emphasis written {@code _word_} or
 * {@code __word__} made the token {@code _word_}, and a search for "word" never found it ({@code
 * *word*} was always split off). Underscores inside a token stay: {@code read_line} is one word.
 */
final class TextAnalyzer extends StopwordAnalyzerBase {

  /**
   * Version of the analysis, part of {@link IndexConfig#chunkingSignature()}: an index analyzed
   * otherwise rewrites its chunks on the next sync (vectors are reused).
   */
  static final String VERSION = "analysis-v2";

  /** Underscores at the start or the end of a token. */
  private static final Pattern EDGE_UNDERSCORES = Pattern.compile("^_+|_+$");

  TextAnalyzer() {
    super(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
  }

  /** The same analysis with each distinct word filtered once; see {@link #wordCached()}. */
  private volatile WordCachedAnalyzer wordCached;

  @Override
  protected TokenStreamComponents createComponents(String fieldName) {
    Tokenizer source = new StandardTokenizer();
    return new TokenStreamComponents(source, filters(source, stopwords));
  }

  /**
   * The filters after the tokenizer. Each looks at one token's text alone (none reads its type,
   * keyword flag or neighbours), so a word's term, or its removal, depends on the word only: what
   * {@link WordCachedAnalyzer} relies on.
   */
  static TokenStream filters(TokenStream source, CharArraySet stopwords) {
    TokenStream result = new PatternReplaceFilter(source, EDGE_UNDERSCORES, "", true);
    result = new LengthFilter(result, 1, Integer.MAX_VALUE);
    result = new EnglishPossessiveFilter(result);
    result = new LowerCaseFilter(result);
    result = new StopFilter(result, stopwords);
    return new PorterStemFilter(result);
  }

  /**
   * An analyzer giving the same tokens (terms, offsets, positions) as this one, that runs the
   * filters once per distinct word and then remembers the word's term: for analyzing stored text in
   * memory again and again (search rows' excerpts and matched terms), not for indexing.
   */
  WordCachedAnalyzer wordCached() {
    WordCachedAnalyzer cached = wordCached;
    if (cached == null) {
      synchronized (this) {
        cached = wordCached;
        if (cached == null) {
          cached = new WordCachedAnalyzer(getStopwordSet());
          wordCached = cached;
        }
      }
    }
    return cached;
  }

  @Override
  public void close() {
    WordCachedAnalyzer cached = wordCached;
    if (cached != null) {
      cached.close();
    }
    super.close();
  }

  @Override
  protected TokenStream normalize(String fieldName, TokenStream in) {
    return new LowerCaseFilter(in);
  }
}
