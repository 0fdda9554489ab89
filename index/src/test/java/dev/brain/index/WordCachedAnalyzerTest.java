package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.junit.jupiter.api.Test;

/** {@link WordCachedAnalyzer}: the text analyzer's tokens, word for word. */
class WordCachedAnalyzerTest {

  /** Term, offsets and position increment of every token. */
  private static List<String> tokens(Analyzer analyzer, String text) throws IOException {
    var out = new ArrayList<String>();
    try (TokenStream stream = analyzer.tokenStream(IndexFields.TEXT, text)) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      OffsetAttribute offset = stream.addAttribute(OffsetAttribute.class);
      PositionIncrementAttribute position = stream.addAttribute(PositionIncrementAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        out.add(
            term
                + "@"
                + offset.startOffset()
                + "-"
                + offset.endOffset()
                + "+"
                + position.getPositionIncrement());
      }
      stream.end();
      out.add("end@" + offset.endOffset() + "+" + position.getPositionIncrement());
    }
    return out;
  }

  @Test
  void givesTheTextAnalyzersTokensForTheSampleVaultAndOddText() throws IOException {
    var texts = new ArrayList<String>();
    texts.add("");
    texts.add("The CEO's _quixotry_ and __init__ read_line of the I.B.M. 3.14 café naïve ___ a");
    texts.add("Running runs ran; the ones' of a to-do: e-mail me@example.com https://x.y/z?q=1");
    texts.add("日本語のテキスト와 한국어 and emoji 👍🏽 mixed ٣٤ ﬁne");
    texts.add("x".repeat(300) + " the end");
    try (Stream<Path> files = Files.walk(Path.of("../samples/vault"))) {
      for (Path p : files.filter(f -> f.toString().endsWith(".md")).toList()) {
        texts.add(Files.readString(p));
      }
    }
    var random = new SplittableRandom(5);
    String alphabet = "abcdeisyA'’_-.:/ \n3";
    for (int i = 0; i < 500; i++) {
      var text = new StringBuilder();
      for (int k = random.nextInt(60); k > 0; k--) {
        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      texts.add(text.toString());
    }
    try (var analyzer = new TextAnalyzer()) {
      Analyzer cached = IndexInternals.forRereading(analyzer);
      assertThat(cached).isInstanceOf(WordCachedAnalyzer.class);
      for (int round = 0; round < 2; round++) { // the second round reads the remembered terms
        for (String text : texts) {
          assertThat(tokens(cached, text)).as(text).isEqualTo(tokens(analyzer, text));
        }
      }
    }
  }
}
