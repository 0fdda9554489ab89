package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.research.trace.Redactor;
import dev.brain.server.chat.Conversation;
import dev.brain.server.chat.ConversationStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brain chat list|show|export} over a conversation of three turns saved as the web Chat
 * saves it (two answered, one whose draft failed verification), read from the files with no server.
 */
class ChatCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DRAFT = "Descale it never [note:vault/invented.md]";

  @TempDir static Path tmp;
  static Path data;
  static Conversation saved;

  record Run(int code, String out, String err) {}

  private static Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  private static ObjectNode turn(int id, String question, String status, String answer) {
    ObjectNode t = JSON.createObjectNode().put("id", id).put("question", question);
    t.put("mode", "research").put("status", status).put("answer", answer);
    t.putArray("citations").add(status.equals("ok") ? "note:vault/descaling.md" : "x:invented");
    t.putObject("pack")
        .putArray("evidence")
        .addObject()
        .put("source_key", "note:vault/descaling.md")
        .put("title", "Descaling");
    return t;
  }

  @BeforeAll
  static void saveAConversation() throws IOException {
    data = tmp.resolve("data");
    var store = new ConversationStore(data, Redactor.of(data, List.of()));
    ObjectNode rejected = turn(3, "And with vinegar?", "failed", DRAFT);
    rejected.putArray("failures").add("cited key note:vault/invented.md is not in the pack");
    saved =
        store
            .save(
                null,
                null,
                List.of(
                    turn(
                        1,
                        "How often should I descale the espresso machine?",
                        "ok",
                        "Every eight weeks [note:vault/descaling.md]."),
                    turn(2, "With what?", "ok", "Citric acid [note:vault/descaling.md]."),
                    rejected))
            .orElseThrow();
  }

  @Test
  void listShowsEachConversationWithItsTurnsAndTitle() {
    Run list = brain("--data", data.toString(), "chat", "list");
    assertThat(list.code()).as(list.err()).isZero();
    assertThat(list.out())
        .contains(saved.id(), "3 turns", "How often should I descale the espresso machine?");

    Run json = brain("--data", data.toString(), "chat", "list", "--json");
    assertThat(json.code()).isZero();
    assertThat(json.out().strip()).startsWith("[").endsWith("]");
  }

  @Test
  void showPrintsTheConversationAsADocumentWithTheRejectedTurnAsRejected() {
    Run show = brain("--data", data.toString(), "chat", "show", saved.id().substring(0, 15));
    assertThat(show.code()).as(show.err()).isZero();
    assertThat(show.out())
        .startsWith("# How often should I descale the espresso machine?")
        .contains("## 2. With what?", "Citric acid", "## 3. And with vinegar?")
        .contains("**Status:** rejected", "[Descaling](/record/note%3Avault%2Fdescaling.md)")
        .doesNotContain(DRAFT, "x:invented");
  }

  @Test
  void exportWritesJsonToAFileAndMarkdownToStandardOutput() throws IOException {
    Path file = tmp.resolve("shared.json");
    Run json =
        brain(
            "--data",
            data.toString(),
            "chat",
            "export",
            saved.id(),
            "--format",
            "json",
            "--out",
            file.toString());
    assertThat(json.code()).as(json.err()).isZero();
    assertThat(json.out()).isEmpty();
    assertThat(json.err()).contains("exported conversation " + saved.id(), file.toString());
    JsonNode exported = JSON.readTree(Files.readString(file));
    assertThat(exported.path("turns").findValuesAsText("status"))
        .containsExactly("answered", "answered", "rejected");
    assertThat(exported.path("turns").get(2).has("answer")).isFalse();
    assertThat(Files.readString(file)).doesNotContain(DRAFT, data.toAbsolutePath().toString());

    Run md = brain("--data", data.toString(), "chat", "export", "latest", "--format", "md");
    assertThat(md.code()).as(md.err()).isZero();
    assertThat(md.out()).contains("## 1. How often", "Every eight weeks").doesNotContain(DRAFT);
  }

  @Test
  void anUnknownConversationOrFormatIsAClearError() {
    Run unknown = brain("--data", data.toString(), "chat", "show", "20200101T000000");
    assertThat(unknown.code()).isEqualTo(1);
    assertThat(unknown.err())
        .contains("no saved conversation '20200101T000000'", "brain chat list");
    Run format = brain("--data", data.toString(), "chat", "export", saved.id(), "--format", "pdf");
    assertThat(format.code()).isEqualTo(2);
    assertThat(format.err()).contains("--format");
  }
}
