package dev.brain.research.note;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TopicExtractorTest {

  private static final String NOTE =
      """
      ---
      title: Niche Zero
      tags: [coffee, grinder]
      ---
      # Niche Zero

      Single-dosing grinder.

      ## Grind settings

      **Espresso, medium roast: 15** for the [[Gaggia Classic Pro]].
      Does RDT really reduce clumps?

      ## Research

      ### Old topic
      - [[Old note]]

      #home-espresso
      """;

  @Test
  void takesHeadingsQuestionsKeyPhrasesLinksAndTagsInOrder() {
    List<Topic> topics = TopicExtractor.extract(NOTE, "fallback");
    assertThat(topics)
        .extracting(Topic::topic)
        .containsExactly(
            "Niche Zero: Grind settings",
            "Does RDT really reduce clumps?",
            "Espresso, medium roast: 15",
            "Gaggia Classic Pro",
            // #coffee files the note but its text never speaks of coffee: no topic
            "grinder");
    assertThat(topics.get(0).context())
        .isEqualTo("Espresso, medium roast: 15 for the Gaggia Classic Pro.");
    assertThat(topics.get(1).type()).isEqualTo("question");
  }

  @Test
  void ignoresItsOwnResearchSection() {
    assertThat(TopicExtractor.extract(NOTE, "x"))
        .extracting(Topic::topic)
        .doesNotContain("Old note", "Old topic");
  }

  @Test
  void focusKeepsMatchingTopicsOrBecomesTheTopic() {
    List<Topic> topics = TopicExtractor.extract(NOTE, "x");
    assertThat(TopicExtractor.narrow(topics, "the Gaggia machine"))
        .extracting(Topic::topic)
        .containsExactly(
            "Niche Zero: Grind settings", "Espresso, medium roast: 15", "Gaggia Classic Pro");
    assertThat(TopicExtractor.narrow(topics, "water hardness"))
        .extracting(Topic::topic)
        .containsExactly("water hardness");
  }

  @Test
  void sameNoteSameTopics() {
    assertThat(TopicExtractor.extract(NOTE, "x")).isEqualTo(TopicExtractor.extract(NOTE, "x"));
  }
}
