package dev.brain.research.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.research.plan.ConversationTurn;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The task of an agent turn that continues a conversation. */
class AgentTaskTest {

  @Test
  void aFirstTurnIsTheTaskAsTyped() {
    assertThat(AgentTask.of("What grind for espresso?", List.of()))
        .isEqualTo("What grind for espresso?");
  }

  @Test
  void theLatestEarlierTurnsFollowTheTaskWithTheKeysTheyCited() {
    var turns = new ArrayList<ConversationTurn>();
    for (int i = 1; i <= 7; i++) {
      turns.add(new ConversationTurn("question " + i, List.of("note:v/" + i + ".md"), List.of()));
    }
    turns.add(
        new ConversationTurn(
            "x".repeat(400),
            java.util.stream.IntStream.range(0, 12).mapToObj(k -> "note:v/k" + k + ".md").toList(),
            List.of()));

    String task = AgentTask.of("and for the V60?", turns);

    assertThat(task).startsWith("and for the V60?\n\nEarlier in this conversation");
    assertThat(task.lines().filter(l -> l.startsWith("- "))).hasSize(AgentTask.MAX_TURNS);
    assertThat(task).doesNotContain("question 1 ", "question 3 ").contains("question 4 (it cited");
    assertThat(task).contains("note:v/k7.md").doesNotContain("note:v/k8.md");
    assertThat(task).contains("x".repeat(AgentTask.QUESTION_CHARS - 1) + "…");
  }
}
