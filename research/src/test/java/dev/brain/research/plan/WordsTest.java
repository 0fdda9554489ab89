package dev.brain.research.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WordsTest {

  /** What stems did before it scanned words itself: every token, then its parts by regex. */
  private static Set<String> reference(String text) {
    var out = new HashSet<String>();
    for (Words.Token t : Words.tokens(text)) {
      out.add(Words.stem(t.lower()));
      for (String part : t.lower().split("[-/_.]")) {
        if (!part.isEmpty()) {
          out.add(Words.stem(part));
        }
      }
    }
    return out;
  }

  @Test
  void stemsAreEveryWordsStemAndItsPartsStems() {
    for (String text :
        List.of(
            "",
            "#Co-op's well_known e.g. a/b -x- 3.14 Running runs ran",
            "The CEO’s read_line() and x.y.z/w-v, __init__ HNSW-based top-10.",
            "Flies studied; ceremonies: hopping. #tag/sub-tag")) {
      assertThat(Words.stems(text)).as(text).isEqualTo(reference(text));
    }
    var random = new SplittableRandom(3);
    String alphabet = "abcdeinsy AB-/_.'’#0 \n";
    for (int i = 0; i < 2_000; i++) {
      var text = new StringBuilder();
      int n = random.nextInt(40);
      for (int k = 0; k < n; k++) {
        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      assertThat(Words.stems(text.toString()))
          .as(text.toString())
          .isEqualTo(reference(text.toString()));
    }
  }
}
