package dev.brain.server.mcp;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.server.http.SampleVaultData;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The lookup tools cap their arguments themselves, also when called in process (the agent's tools)
 * where no MCP schema validation runs first: a query or topic as long as a question, a key at most
 * 1,024 characters, at most {@value BrainTools#MAX_KEYS} keys.
 */
class LookupToolCapsTest {
  private static final String OVER_QUESTION = "w".repeat(ResearchOptions.MAX_QUESTION_CHARS + 1);
  private static final String OVER_KEY = "note:vault/" + "k".repeat(ToolArgs.MAX_NAME_CHARS);

  private static Brain brain;
  private static BrainTools tools;

  @BeforeAll
  static void open() throws Exception {
    brain = Brain.openReadOnly(BrainConfig.defaults(SampleVaultData.dataDir()));
    tools = new BrainTools(brain);
  }

  @AfterAll
  static void close() throws Exception {
    brain.close();
  }

  @Test
  void aSearchQueryOverTheQuestionCapIsRefused() {
    assertThatThrownBy(() -> tools.search(Map.of("query", OVER_QUESTION)))
        .isInstanceOf(ToolInputException.class)
        .hasMessageContaining("'query' is 4001 characters long; at most 4000");
  }

  @Test
  void aTopicOverTheQuestionCapIsRefused() {
    assertThatThrownBy(() -> tools.topicBrief(Map.of("topic", OVER_QUESTION)))
        .isInstanceOf(ToolInputException.class)
        .hasMessageContaining("'topic'");
  }

  @Test
  void aKeyOverTheKeyCapIsRefused() {
    assertThatThrownBy(() -> tools.get(Map.of("key", OVER_KEY)))
        .isInstanceOf(ToolInputException.class)
        .hasMessageContaining("'key'");
    assertThatThrownBy(() -> tools.get(Map.of("key", "note:vault/a.md", "query", OVER_QUESTION)))
        .isInstanceOf(ToolInputException.class)
        .hasMessageContaining("'query'");
  }

  @Test
  void getManyCapsItsKeysAndTheirCount() {
    assertThatThrownBy(() -> tools.getMany(Map.of("keys", List.of(OVER_KEY))))
        .isInstanceOf(ToolInputException.class)
        .hasMessageContaining("at most 1024 characters");
    var many =
        java.util.stream.IntStream.rangeClosed(0, BrainTools.MAX_KEYS)
            .mapToObj(i -> "note:vault/" + i + ".md")
            .toList();
    assertThatThrownBy(() -> tools.getMany(Map.of("keys", many)))
        .isInstanceOf(ToolInputException.class)
        .hasMessageContaining("at most " + BrainTools.MAX_KEYS + " entries");
  }
}
