package dev.brain.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.FilteringTokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * {@link TextAnalyzer}'s analysis with each distinct word filtered once: the standard tokenizer,
 * then each word's term looked up in a map filled by running {@link TextAnalyzer#filters} over the
 * word alone. Those filters treat every token on its own, so the tokens (terms, offsets, and the
 * position gaps removed words leave) are the same as the text analyzer's, at the cost of a map
 * lookup instead of lower-casing, stop-word and Porter-stemming each occurrence. Thread-safe.
 */
final class WordCachedAnalyzer extends Analyzer {

  /** Words remembered before the map is emptied and filled again (bounds its memory). */
  private static final int MAX_WORDS = 200_000;

  /** The term of a word the filters remove (a stop word): never a real term, which is not empty. */
  private static final String REMOVED = "";

  private final ConcurrentHashMap<String, String> terms = new ConcurrentHashMap<>();
  private final Analyzer oneWord;

  WordCachedAnalyzer(CharArraySet stopwords) {
    this.oneWord =
        new Analyzer() {
          @Override
          protected TokenStreamComponents createComponents(String fieldName) {
            Tokenizer source = new KeywordTokenizer();
            return new TokenStreamComponents(source, TextAnalyzer.filters(source, stopwords));
          }
        };
  }

  @Override
  protected TokenStreamComponents createComponents(String fieldName) {
    Tokenizer source = new StandardTokenizer();
    return new TokenStreamComponents(source, new CachedTerms(source));
  }

  /** The term of {@code word} (one token of the standard tokenizer), or REMOVED. */
  String term(String word) {
    String term = terms.get(word);
    if (term == null) {
      term = analyze(word);
      if (terms.size() >= MAX_WORDS) {
        terms.clear();
      }
      terms.put(word, term);
    }
    return term;
  }

  private String analyze(String word) {
    try (TokenStream stream = oneWord.tokenStream("", word)) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      stream.reset();
      String out = stream.incrementToken() ? term.toString() : REMOVED;
      if (stream.incrementToken()) {
        throw new IllegalStateException("the text filters made two tokens of one: " + word);
      }
      stream.end();
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("analyzing a word in memory failed", e);
    }
  }

  @Override
  public void close() {
    oneWord.close();
    super.close();
  }

  /** Replaces each token's text with its word's term and drops removed words. */
  private final class CachedTerms extends FilteringTokenFilter {
    private final CharTermAttribute text = addAttribute(CharTermAttribute.class);

    CachedTerms(TokenStream in) {
      super(in);
    }

    @Override
    protected boolean accept() {
      String term = term(text.toString());
      if (term.isEmpty()) {
        return false;
      }
      text.setEmpty().append(term);
      return true;
    }
  }
}
