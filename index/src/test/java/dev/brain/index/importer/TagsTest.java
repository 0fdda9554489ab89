package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TagsTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "coffee, coffee",
    "#Coffee, coffee",
    "Home Espresso, home-espresso",
    "home_espresso, home-espresso",
    "'  Deep   Work  ', deep-work",
    "coffee/Espresso, coffee/espresso",
    "'coffee / espresso', coffee/espresso",
    "-trailing-, trailing",
    "Ünïcode Tag, ünïcode-tag",
  })
  void normalizesToLowerCaseHyphenatedTags(String raw, String normalized) {
    assertThat(Tags.normalize(raw)).isEqualTo(normalized);
  }

  @Test
  void normalizeAllDropsEmptyAndDuplicateTagsKeepingOrder() {
    assertThat(Tags.normalizeAll(List.of("Coffee", " ", "#", "running", "coffee", "Home Espresso")))
        .containsExactly("coffee", "running", "home-espresso");
  }
}
