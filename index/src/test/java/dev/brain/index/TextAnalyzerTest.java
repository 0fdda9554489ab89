package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.junit.jupiter.api.Test;

/** {@link TextAnalyzer}: the words Markdown emphasis wraps are words. */
class TextAnalyzerTest {

  private static List<String> terms(Analyzer analyzer, String text) throws IOException {
    var out = new ArrayList<String>();
    try (TokenStream stream = analyzer.tokenStream(IndexFields.TEXT, text)) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        out.add(term.toString());
      }
      stream.end();
    }
    return out;
  }

  @Test
  void everyFormOfMarkdownEmphasisLeavesTheWordItWraps() throws IOException {
    try (var analyzer = new TextAnalyzer()) {
      assertThat(terms(analyzer, "_quixotry_ *velvetine* __zephyrine__ **glimmerous**"))
          .containsExactly("quixotri", "velvetin", "zephyrin", "glimmer");
      assertThat(terms(analyzer, "the _two's complement wrapping_ rule"))
          .containsExactly("two", "complement", "wrap", "rule");
    }
  }

  @Test
  void underscoresInsideAWordKeepItOneWordAndLoneUnderscoresAreNoWord() throws IOException {
    try (var analyzer = new TextAnalyzer()) {
      assertThat(terms(analyzer, "call read_line or RUST_BACKTRACE ___"))
          .containsExactly("call", "read_lin", "rust_backtrac");
    }
  }
}
