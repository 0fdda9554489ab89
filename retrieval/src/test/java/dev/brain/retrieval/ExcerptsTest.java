package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.retrieval.Excerpts.Match;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExcerptsTest {

  private static final String FILLER = "alpha beta gamma delta epsilon zeta eta theta iota kappa ";

  private static String text() {
    return FILLER.repeat(20) + "the zeolite sample " + FILLER.repeat(20);
  }

  private static Match zeolite(String text) {
    int at = text.indexOf("zeolite");
    return new Match(at, at + "zeolite".length(), "zeolit");
  }

  @Test
  void whitespaceRunsBecomeOneSpaceAndTheEndsAreStripped() {
    assertThat(Excerpts.collapse("\n\t Lucene  indexes\r\n\ndocuments\f\u000Bfast \t"))
        .isEqualTo("Lucene indexes documents fast");
    assertThat(Excerpts.collapse("one two")).isEqualTo("one two");
    assertThat(Excerpts.collapse(" \n ")).isEmpty();
  }

  @Test
  void shortTextIsReturnedWholeWithWhitespaceCollapsed() {
    assertThat(Excerpts.excerpt("one\n\n two   three", 0, List.of(), 600))
        .isEqualTo("one two three");
  }

  @Test
  void windowIsCentredOnTheMatchAndBounded() {
    String text = text();
    String excerpt = Excerpts.excerpt(text, 0, List.of(zeolite(text)), 120);

    assertThat(excerpt).hasSizeLessThanOrEqualTo(120).startsWith("…").endsWith("…");
    assertThat(excerpt).contains("the zeolite sample");
    String body = excerpt.substring(1, excerpt.length() - 1);
    int before = body.indexOf("zeolite");
    int after = body.length() - before - "zeolite".length();
    assertThat(Math.abs(before - after)).isLessThan(20);
  }

  @Test
  void windowNeverCutsAWord() {
    String text = text();
    String body = Excerpts.excerpt(text, 0, List.of(zeolite(text)), 101).replace("…", "");

    for (String word : body.split(" ")) {
      assertThat(" " + text + " ").contains(" " + word + " ");
    }
  }

  @Test
  void windowPrefersTheClusterWithMoreDistinctTerms() {
    String text = "lonely " + FILLER.repeat(10) + "grind size and dose " + FILLER.repeat(10);
    int grind = text.indexOf("grind");
    int dose = text.indexOf("dose");
    var matches =
        List.of(
            new Match(0, 6, "lone"),
            new Match(grind, grind + 5, "grind"),
            new Match(dose, dose + 4, "dose"));

    String excerpt = Excerpts.excerpt(text, 0, matches, 100);

    assertThat(excerpt).contains("grind size and dose").doesNotContain("lonely");
  }

  @Test
  void withoutMatchesTheWindowStartsAtTheBestChunk() {
    String text = FILLER.repeat(20);
    int chunkStart = FILLER.length() * 5;

    String excerpt = Excerpts.excerpt(text, chunkStart, List.of(), 80);

    assertThat(excerpt).startsWith("…alpha beta").endsWith("…").hasSizeLessThanOrEqualTo(80);
  }

  @Test
  void matchNearTheEndShiftsTheWindowInsideTheText() {
    String text = FILLER.repeat(10) + "final zeolite";
    String excerpt = Excerpts.excerpt(text, 0, List.of(zeolite(text)), 60);

    assertThat(excerpt).startsWith("…").endsWith("final zeolite").hasSizeLessThanOrEqualTo(60);
  }
}
