package dev.brain.research.note;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ModelTopicsTest {

  @Test
  void parsesAListSanitizingLabelsAndTypes() {
    var topics =
        ModelTopics.parse(
            "```json\n[{\"topic\":\"  grind\\nsize \",\"context\":\"15 on the dial\",\"type\":\"claim\"},"
                + "{\"topic\":\"Grind Size\",\"type\":\"claim\"},"
                + "{\"topic\":\"RDT\",\"context\":\"\",\"type\":\"opinion\"},{\"topic\":\"\"}]\n```");
    assertThat(topics)
        .containsExactly(
            new Topic("grind size", "15 on the dial", "claim"), new Topic("RDT", "", "concept"));
  }

  @Test
  void acceptsAnObjectHoldingTheList() {
    assertThat(ModelTopics.parse("{\"topics\":[{\"topic\":\"burrs\",\"type\":\"concept\"}]}"))
        .extracting(Topic::topic)
        .containsExactly("burrs");
  }

  @Test
  void rejectsWhatIsNoList() {
    assertThatThrownBy(() -> ModelTopics.parse("Sure! The topics are grind and burrs."))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ModelTopics.parse("[{\"topic\": \"a\",]"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
