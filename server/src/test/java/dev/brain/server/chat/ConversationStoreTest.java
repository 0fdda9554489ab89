package dev.brain.server.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.research.trace.Redactor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How saves merge into a conversation's file, and its bounds. */
class ConversationStoreTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path data;

  private ConversationStore store() {
    return new ConversationStore(data, Redactor.of(data, List.of()));
  }

  private static ObjectNode turn(int id, String question) {
    return JSON.createObjectNode().put("id", id).put("question", question).put("status", "ok");
  }

  @Test
  void aSaveOfTheLatestTurnKeepsTheEarlierOnesAndReplacesATurnById() throws IOException {
    var store = store();
    String id = store.save(null, null, List.of(turn(1, "first"))).orElseThrow().id();
    // The Chat keeps only its last turns; each save sends the turn that just finished.
    for (int n = 2; n <= 10; n++) {
      store.save(id, null, List.of(turn(n, "question " + n)));
    }
    store.save(id, null, List.of(turn(5, "question 5, asked again")));

    Conversation saved = store.find(id);
    assertThat(saved.turns()).hasSize(10);
    assertThat(saved.turns().get(0).path("question").asText()).isEqualTo("first");
    assertThat(saved.turns().get(4).path("question").asText()).isEqualTo("question 5, asked again");
    assertThat(saved.title()).isEqualTo("first");
    assertThat(store.list()).extracting(Conversation.Summary::turns).containsExactly(10);
    // Written whole and renamed into place: no temporary file is left beside it.
    try (var files = Files.list(store.root())) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactly(id + ".json");
    }
  }

  @Test
  void aConversationKeepsAtMostItsTurnBoundAndSaysSo() throws IOException {
    var store = store();
    var turns = new ArrayList<ObjectNode>();
    for (int n = 1; n <= ConversationStore.MAX_TURNS; n++) {
      turns.add(turn(n, "q" + n));
    }
    String id = store.save(null, null, turns).orElseThrow().id();
    assertThatThrownBy(() -> store.save(id, null, List.of(turn(0, "one more"))))
        .isInstanceOf(ConversationException.class)
        .hasMessageContaining("at most " + ConversationStore.MAX_TURNS + " turns")
        .extracting(e -> ((ConversationException) e).kind())
        .isEqualTo(ConversationException.Kind.TOO_LARGE);
    assertThat(store.find(id).turns()).hasSize(ConversationStore.MAX_TURNS);
  }
}
