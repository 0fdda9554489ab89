package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.server.chat.ConversationStore;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Chat's saved conversations over the API, on a private copy of the sample vault: a Chat of
 * three turns (two answered by real runs, one whose draft failed verification) saved turn by turn
 * as the Chat saves them, reopened after a server restart, and exported to Markdown and JSON with
 * the rejected turn as rejected, no secrets and no absolute paths; rename, delete, the draft eval
 * cases the Lab proposes, and the refusals (a cross-site save, no token, bad input).
 */
class SavedConversationApiTest {
  private static final String BACKFLUSH = "How often should I backflush the espresso machine?";
  private static final String GRIND = "What grind size do I use for espresso?";
  private static final String REJECTED_DRAFT = "The machine explodes weekly [note:invented/key.md]";
  private static final String SECRET = "sk-live-4f9a8b7c6d5e4f3a2b1c";

  @TempDir static Path data;

  private static BrainServer server;
  private static URI base;
  private static ObjectNode answered1;
  private static ObjectNode answered2;

  @BeforeAll
  static void startAndAskTwice() throws Exception {
    SampleVaultData.copyTo(data);
    start();
    answered1 = chatTurn(1, BACKFLUSH);
    answered2 = chatTurn(2, GRIND);
  }

  private static void start() throws Exception {
    server = BrainServer.start(SampleVaultData.onAnyPort(data));
    base = server.url();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** A research run's turn as the Chat keeps it after its {@code done} event. */
  private static ObjectNode chatTurn(int id, String question) throws Exception {
    var stream =
        Sse.read(
            Sse.post(
                base.resolve("/api/research/run"),
                HttpJson.MAPPER.writeValueAsString(Map.of("question", question))));
    JsonNode done = stream.first("done").data();
    ObjectNode turn = HttpJson.MAPPER.createObjectNode();
    turn.put("id", id);
    turn.put("question", question);
    turn.put("mode", "research");
    turn.put("status", "ok");
    turn.put("answer", done.path("answer").asText());
    turn.put("answerStatus", done.path("answer_status").asText());
    ArrayNode citations = turn.putArray("citations");
    done.path("citations").forEach(c -> citations.add(c.path("source_key").asText()));
    ArrayNode evidence = turn.putObject("pack").putArray("evidence");
    done.path("pack")
        .path("evidence")
        .forEach(
            r ->
                evidence
                    .addObject()
                    .put("source_key", r.path("source_key").asText())
                    .put("title", r.path("title").asText()));
    turn.put("trace", done.path("trace_id").asText());
    turn.put("stopReason", done.path("stop_reason").asText());
    turn.put("model", done.path("model").asText());
    return turn;
  }

  /**
   * A turn whose draft failed verification, as the Chat keeps it; the draft left in on purpose,
   * with a secret in the question and paths of this machine in the failure.
   */
  private static ObjectNode rejectedTurn(int id) {
    ObjectNode turn = HttpJson.MAPPER.createObjectNode();
    turn.put("id", id);
    turn.put("question", "Does it need descaling? my api_key=" + SECRET);
    turn.put("mode", "research");
    turn.put("status", "failed");
    turn.put("answer", REJECTED_DRAFT);
    turn.putArray("citations").add("note:invented/key.md");
    turn.putArray("failures")
        .add(
            "cited key note:invented/key.md is not in the pack; see "
                + data.toAbsolutePath().resolve("research-runs")
                + " and /home/someone/private/notes.md");
    turn.put("stopReason", "verification_failed");
    return turn;
  }

  private static Http.Reply save(Object body) throws Exception {
    return Http.post(
        base, "/api/conversations", HttpJson.MAPPER.writeValueAsString(body), server.clientToken());
  }

  private static Map<String, Object> turns(String id, ObjectNode... turns) {
    return id == null ? Map.of("turns", List.of(turns)) : Map.of("id", id, "turns", List.of(turns));
  }

  @Test
  void aChatOfThreeTurnsIsSavedReopenedAfterARestartAndExportedWithTheRejectedTurnAsRejected()
      throws Exception {
    // Saved as the Chat saves: after each finished turn, the first one starting the conversation.
    var first = save(turns(null, answered1));
    assertThat(first.status()).as(first.body()).isEqualTo(201);
    String id = first.json().path("id").asText();
    assertThat(first.json().path("title").asText()).isEqualTo(BACKFLUSH);
    assertThat(save(turns(id, answered2)).status()).isEqualTo(200);
    var third = save(turns(id, rejectedTurn(3)));
    assertThat(third.status()).as(third.body()).isEqualTo(200);
    assertThat(third.json().path("turns").asInt()).isEqualTo(3);
    Path file = data.resolve(ConversationStore.DIRECTORY).resolve(id + ".json");
    assertThat(file).isRegularFile();
    assertThat(Files.readString(file)).doesNotContain(SECRET);

    server.close();
    start();

    var list = Http.get(base, "/api/conversations");
    assertThat(list.status()).isEqualTo(200);
    JsonNode listed = list.json().path("conversations");
    assertThat(listed.findValuesAsText("id")).contains(id);
    var reopened = Http.get(base, "/api/conversations/" + id);
    assertThat(reopened.status()).isEqualTo(200);
    JsonNode saved = reopened.json().path("turns");
    assertThat(saved).hasSize(3);
    assertThat(saved.findValuesAsText("question").subList(0, 2)).containsExactly(BACKFLUSH, GRIND);
    assertThat(saved.get(0).path("answer").asText()).isEqualTo(answered1.path("answer").asText());

    var md = Http.get(base, "/api/conversations/" + id + "/export?format=md");
    assertThat(md.status()).isEqualTo(200);
    assertThat(md.contentType()).startsWith("text/markdown");
    String cited = answered1.path("citations").get(0).asText();
    assertThat(md.body())
        .startsWith("# " + BACKFLUSH)
        .contains("## 1. " + BACKFLUSH, "## 2. " + GRIND, "**Status:** answered")
        .contains("](" + "/record/" + Http.enc(cited).replace("+", "%20") + ") `" + cited + "`")
        .contains("## 3. Does it need descaling?", "**Status:** rejected: verification failed")
        .contains("<data>/research-runs", "[path]")
        .doesNotContain(REJECTED_DRAFT, "/record/note%3Ainvented", SECRET)
        .doesNotContain(data.toAbsolutePath().toString(), "/home/someone");

    var json = Http.get(base, "/api/conversations/" + id + "/export?format=json");
    assertThat(json.status()).isEqualTo(200);
    JsonNode exported = json.json();
    assertThat(exported.path("schema_version").asText()).isEqualTo("brain_conversation_export.v1");
    JsonNode t = exported.path("turns");
    assertThat(t.findValuesAsText("status")).containsExactly("answered", "answered", "rejected");
    assertThat(t.get(0).path("answer").asText()).isNotBlank();
    assertThat(t.get(0).path("citations").get(0).path("url").asText())
        .isEqualTo("/record/" + Http.enc(cited).replace("+", "%20"));
    assertThat(t.get(2).has("answer")).isFalse();
    assertThat(t.get(2).has("citations")).isFalse();
    assertThat(t.get(2).path("failures").get(0).asText()).contains("<data>/research-runs");
    assertThat(json.body())
        .doesNotContain(REJECTED_DRAFT, SECRET, data.toAbsolutePath().toString());

    var pdf = Http.get(base, "/api/conversations/" + id + "/export?format=pdf");
    assertThat(pdf.status()).isEqualTo(422);
    assertThat(pdf.error().path("code").asText()).isEqualTo("invalid_option");
    assertThat(pdf.error().path("field").asText()).isEqualTo("format");
    assertThat(pdf.error().path("message").asText()).isEqualTo("unknown format 'pdf'");
    assertThat(pdf.error().path("allowed_values").toString()).contains("md", "json");
  }

  @Test
  void aTurnMarkedDontSaveIsNotWritten() throws Exception {
    ObjectNode unsaved = answered1.deepCopy().put("unsaved", true).put("id", 7);
    var only = save(turns(null, unsaved));
    assertThat(only.status()).isEqualTo(422);
    assertThat(only.error().path("code").asText()).isEqualTo("nothing_to_save");

    var created = save(turns(null, answered2.deepCopy().put("question", "kept question")));
    String id = created.json().path("id").asText();
    var mixed = save(turns(id, unsaved));
    assertThat(mixed.json().path("turns").asInt()).isEqualTo(1);
    assertThat(Files.readString(data.resolve("chat-transcripts").resolve(id + ".json")))
        .contains("kept question")
        .doesNotContain(BACKFLUSH);
  }

  @Test
  void aConversationIsRenamedAndDeleted() throws Exception {
    String id = save(turns(null, answered2)).json().path("id").asText();
    var renamed =
        Http.post(
            base,
            "/api/conversations/" + id + "/rename",
            "{\"title\":\"Espresso grind\"}",
            server.clientToken());
    assertThat(renamed.status()).as(renamed.body()).isEqualTo(200);
    assertThat(Http.get(base, "/api/conversations/" + id).json().path("title").asText())
        .isEqualTo("Espresso grind");
    var blank =
        Http.post(
            base,
            "/api/conversations/" + id + "/rename",
            "{\"title\":\" \"}",
            server.clientToken());
    assertThat(blank.status()).isEqualTo(422);
    assertThat(blank.error().path("field").asText()).isEqualTo("title");

    var deleted =
        Http.post(base, "/api/conversations/" + id + "/delete", "{}", server.clientToken());
    assertThat(deleted.status()).isEqualTo(200);
    assertThat(Http.get(base, "/api/conversations/" + id).status()).isEqualTo(404);
    var again = Http.post(base, "/api/conversations/" + id + "/delete", "{}", server.clientToken());
    assertThat(again.status()).isEqualTo(404);
    // A save into the deleted conversation says so; the Chat then starts a new one.
    assertThat(save(turns(id, answered1)).status()).isEqualTo(404);
  }

  @Test
  void theLabProposesDraftCasesFromASavedConversationAndAppendsThem() throws Exception {
    String id = save(turns(null, answered1, rejectedTurn(2))).json().path("id").asText();
    var proposed = Http.get(base, "/api/conversations/" + id + "/eval-cases");
    assertThat(proposed.status()).as(proposed.body()).isEqualTo(200);
    JsonNode cases = proposed.json().path("cases");
    assertThat(cases).hasSize(2);
    assertThat(cases.get(0).path("question").asText()).isEqualTo(BACKFLUSH);
    assertThat(cases.get(1).path("stop_reason").asText()).isEqualTo("verification_failed");
    assertThat(cases.toString()).doesNotContain(REJECTED_DRAFT, "note:invented/key.md");

    var appended =
        Http.post(
            base,
            "/api/conversations/" + id + "/eval-cases",
            "{\"file\":\"from-chat\"}",
            server.clientToken());
    assertThat(appended.status()).as(appended.body()).isEqualTo(201);
    assertThat(appended.json().path("case_ids")).hasSize(2);
    assertThat(data.resolve("evals/cases/from-chat.jsonl")).isRegularFile();
  }

  @Test
  void theGuardRefusesACrossSiteSaveAndTheTokenIsRequired() throws Exception {
    String body = HttpJson.MAPPER.writeValueAsString(turns(null, answered1));
    long before = Http.get(base, "/api/conversations").json().path("count").asLong();
    var crossSite =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/conversations"))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + server.clientToken())
                .header("Origin", "https://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    assertThat(crossSite.status()).isEqualTo(403);
    assertThat(crossSite.error().path("code").asText()).isEqualTo("forbidden_origin");
    var sameSiteFetch =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/conversations"))
                .header("Content-Type", "application/json")
                .header("Sec-Fetch-Site", "cross-site")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    assertThat(sameSiteFetch.status()).isEqualTo(403);
    var noToken = Http.post(base, "/api/conversations", body);
    assertThat(noToken.status()).isEqualTo(401);
    var form =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/conversations"))
                .header("Content-Type", "text/plain")
                .header("Authorization", "Bearer " + server.clientToken())
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    assertThat(form.status()).isEqualTo(415);
    assertThat(Http.get(base, "/api/conversations").json().path("count").asLong())
        .isEqualTo(before);
  }

  @Test
  void badRequestsAreClearErrorsInTheEnvelope() throws Exception {
    assertThat(save(Map.of("turns", List.of())).error().path("field").asText()).isEqualTo("turns");
    var noQuestion = save(Map.of("turns", List.of(Map.of("answer", "x"))));
    assertThat(noQuestion.status()).isEqualTo(422);
    assertThat(noQuestion.error().path("field").asText()).isEqualTo("turns[0].question");
    var badId = save(Map.of("id", "../../etc/passwd", "turns", List.of(answered1)));
    assertThat(badId.status()).isEqualTo(422);
    assertThat(badId.error().path("field").asText()).isEqualTo("id");
    var unknown = Http.get(base, "/api/conversations/20200101T000000.000Z-000000000000");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.error().path("message").asText()).contains("brain chat list");
    var format = Http.get(base, "/api/conversations/20200101T000000.000Z-000000000000/export?x=1");
    assertThat(format.status()).isEqualTo(422);
    var tooLong = save(Map.of("turns", List.of(Map.of("question", "q".repeat(8_001)))));
    assertThat(tooLong.status()).isEqualTo(413);
    assertThat(Http.get(base, "/api/conversations/x/rename").status()).isEqualTo(405);
  }
}
