package dev.brain.retrieval;

import dev.brain.index.IndexFields;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;

/** Runs the index's analyzer over text, keeping each token's offsets into the text. */
final class Analysis {
  private Analysis() {}

  /**
   * One analyzed token.
   *
   * @param term the analyzed form (lower-cased, stemmed)
   * @param start offset of the token's first character in the analyzed text
   * @param end offset after its last character
   */
  record Token(String term, int start, int end) {}

  /** The tokens of {@code text} as the text field would index them. */
  static List<Token> tokens(Analyzer analyzer, String text) {
    var tokens = new ArrayList<Token>();
    if (text == null || text.isEmpty()) {
      return tokens;
    }
    try (TokenStream stream = analyzer.tokenStream(IndexFields.TEXT, text)) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        tokens.add(new Token(term.toString(), offset.startOffset(), offset.endOffset()));
      }
      stream.end();
    } catch (IOException e) {
      throw new UncheckedIOException("analyzing text in memory failed", e);
    }
    return tokens;
  }

  /** The distinct analyzed terms of {@code text}. */
  static Set<String> terms(Analyzer analyzer, String text) {
    var terms = new HashSet<String>();
    for (Token t : tokens(analyzer, text)) {
      terms.add(t.term());
    }
    return terms;
  }
}
