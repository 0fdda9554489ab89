package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.junit.jupiter.api.Test;

class QueryTextTest {

  @Test
  void tagAliasesHyphenateMultiWordSpansLongestFirst() {
    assertThat(QueryText.tagAliases("Mark Carney"))
        .containsExactly("mark-carney", "mark", "carney");
  }

  @Test
  void tagAliasesStopAtThreeWordsAndSkipLoneStopWords() {
    assertThat(QueryText.tagAliases("the bank of canada speeches"))
        .contains("bank-of-canada", "the-bank-of", "bank", "canada")
        .doesNotContain("the", "of", "the-bank-of-canada", "bank-of-canada-speeches");
  }

  @Test
  void tagAliasesKeepHashtagsHyphensAndNestedTags() {
    assertThat(QueryText.tagAliases("#Home_Espresso coffee/beans"))
        .contains("home-espresso", "coffee/beans", "home-espresso-coffee/beans");
  }

  @Test
  void termsAreAnalyzedAndRememberTheWordsAsTyped() {
    try (var analyzer = new EnglishAnalyzer()) {
      QueryText q = QueryText.parse("Grinding the Beans and grinding", analyzer);

      assertThat(q.terms()).containsEntry("grind", "grinding").containsEntry("bean", "beans");
      assertThat(q.terms()).hasSize(2);
      assertThat(q.sequence()).containsExactly("grind", "bean", "grind");
      assertThat(q.matched(Set.of("bean"))).containsExactly("beans");
      assertThat(q.missing(Set.of("bean"))).containsExactly("grinding");
    }
  }

  @Test
  void questionFillerIsDroppedFromTermsAndSearchText() {
    try (var analyzer = new EnglishAnalyzer()) {
      QueryText q = QueryText.parse("Why can't I fall asleep at night?", analyzer);

      assertThat(q.terms().values()).containsExactly("fall", "asleep", "night");
      assertThat(q.searchText()).isEqualTo("fall asleep night");
      assertThat(QueryText.tagAliases("how did I")).doesNotContain("how", "did", "i");
    }
  }

  @Test
  void aQueryOfFillerOnlyKeepsItsWords() {
    try (var analyzer = new EnglishAnalyzer()) {
      QueryText q = QueryText.parse("what do you have", analyzer);

      assertThat(q.terms().values()).containsExactly("what", "do", "you", "have");
      assertThat(q.searchText()).isEqualTo("what do you have");
    }
  }

  @Test
  void aQueryOfStopWordsHasNoTerms() {
    try (var analyzer = new EnglishAnalyzer()) {
      assertThat(QueryText.parse("the and of", analyzer).hasTerms()).isFalse();
    }
  }
}
