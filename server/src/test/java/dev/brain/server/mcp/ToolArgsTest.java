package dev.brain.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.research.pack.ResearchOptions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The checks a tool applies itself, also when it is called in process (the agent's tools) where no
 * MCP schema validation runs first.
 */
class ToolArgsTest {

  private static ToolArgs args(Map<String, Object> values) {
    return new ToolArgs("brain_research_pack", values, Set.of("question", "prior_questions"));
  }

  @Test
  void aQuestionOverTheCapIsRefusedNamingItsLengthAndTheCap() {
    int cap = ResearchOptions.MAX_QUESTION_CHARS;
    assertThat(args(Map.of("question", "w".repeat(cap))).requiredString("question", cap))
        .hasSize(cap);
    assertThatThrownBy(
            () -> args(Map.of("question", "w".repeat(cap + 1))).requiredString("question", cap))
        .isInstanceOf(ToolInputException.class)
        .hasMessage("'question' is 4001 characters long; at most 4000 are accepted");
  }

  @Test
  void aPriorQuestionOverTheCapIsRefused() {
    int cap = ResearchOptions.MAX_QUESTION_CHARS;
    var values = Map.<String, Object>of("prior_questions", List.of("ok", "w".repeat(cap + 1)));
    assertThatThrownBy(() -> args(values).strings("prior_questions", 8, cap))
        .isInstanceOf(ToolInputException.class)
        .hasMessageContaining("at most 4000 characters");
  }

  @Test
  void anOptionalStringOverItsCapIsRefusedAndAbsentStaysAbsent() {
    var query = new ToolArgs("brain_get", Map.of("query", "w".repeat(4_001)), Set.of("query"));
    assertThatThrownBy(() -> query.string("query", 4_000))
        .isInstanceOf(ToolInputException.class)
        .hasMessage("'query' is 4001 characters long; at most 4000 are accepted");
    assertThat(new ToolArgs("brain_get", Map.of(), Set.of("query")).string("query", 10)).isNull();
  }

  @Test
  void listEntriesAreShortNamesUnlessToldOtherwise() {
    var keys =
        new ToolArgs(
            "brain_get_many",
            Map.of("keys", List.of("k".repeat(ToolArgs.MAX_NAME_CHARS + 1))),
            Set.of("keys"));
    assertThatThrownBy(() -> keys.strings("keys", 20))
        .isInstanceOf(ToolInputException.class)
        .hasMessage("'keys' must hold strings of at most 1024 characters");
  }
}
