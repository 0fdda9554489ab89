package dev.brain.server.http;

import static dev.brain.server.http.Http.post;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.BrainConfig;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The {@code conversation} field of the research endpoints (issue 31): earlier turns give a short
 * follow-up its intent; a malformed conversation is a 4xx in the usual error envelope.
 */
class ConversationApiTest {
  private static final String ESPRESSO = "What grind size do I use for espresso?";
  private static final String V60_KEY = "note:vault/coffee/V60 recipe.md";
  private static final String ESPRESSO_KEY = "note:vault/coffee/Espresso recipe.md";

  private static BrainServer server;
  private static URI base;

  @BeforeAll
  static void start() throws Exception {
    var config = BrainConfig.defaults(SampleVaultData.dataDir());
    server = BrainServer.start(config.withServer(config.server().withPort(0)));
    base = server.url();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String json(Object value) throws Exception {
    return HttpJson.MAPPER.writeValueAsString(value);
  }

  private static Map<String, Object> turn() {
    return Map.of(
        "question",
        ESPRESSO,
        "cited_keys",
        List.of(ESPRESSO_KEY),
        "evidence_keys",
        List.of(ESPRESSO_KEY));
  }

  private static List<String> keys(JsonNode rows) {
    var keys = new ArrayList<String>();
    rows.forEach(r -> keys.add(r.path("source_key").asText()));
    return keys;
  }

  @Test
  void aFollowUpWithItsConversationIsPlannedWithTheEarlierIntent() throws Exception {
    var body = json(Map.of("question", "and for the V60?", "conversation", List.of(turn())));

    var reply = post(base, "/api/research", body);

    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    JsonNode followUp = reply.json().path("query_plan").path("follow_up");
    assertThat(followUp.path("previous_question").asText()).isEqualTo(ESPRESSO);
    assertThat(followUp.path("resolved_question").asText()).contains("grind", "V60");
    assertThat(keys(reply.json().path("evidence"))).contains(V60_KEY);
  }

  @Test
  void anEarlierTurnsKeysAreCandidatesThatMustMatchTheFollowUp() throws Exception {
    String compost = "note:vault/garden/Compost.md";
    var turn = Map.of("question", ESPRESSO, "evidence_keys", List.of(compost, V60_KEY));
    var body = json(Map.of("question", "and for the V60?", "conversation", List.of(turn)));

    var reply = post(base, "/api/research", body);

    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(keys(reply.json().path("evidence"))).contains(V60_KEY).doesNotContain(compost);
  }

  @Test
  void aRunWithTheConversationQuotesTheV60GrindSetting() throws Exception {
    var body = json(Map.of("question", "and for the V60?", "conversation", List.of(turn())));

    var stream = Sse.read(Sse.post(base.resolve("/api/research/run"), body));

    assertThat(stream.status()).isEqualTo(200);
    var done = stream.first("done").data();
    assertThat(done.path("answer").asText()).contains("42");
  }

  @Test
  void malformedConversationsAre4xxInTheErrorEnvelope() {
    String q = "{\"question\":\"and for the V60?\",\"conversation\":";
    var notAList = post(base, "/api/research", q + "\"espresso\"}");
    assertThat(notAList.status()).as(notAList.body()).isBetween(400, 499);
    assertThat(notAList.error().path("code").asText()).isNotBlank();

    var noQuestion = post(base, "/api/research", q + "[{\"cited_keys\":[]}]}");
    assertThat(noQuestion.status()).as(noQuestion.body()).isEqualTo(422);
    assertThat(noQuestion.error().path("field").asText()).isEqualTo("conversation[0].question");

    var answer = post(base, "/api/research", q + "[{\"question\":\"x\",\"answer\":\"y\"}]}");
    assertThat(answer.status()).as(answer.body()).isEqualTo(422);

    String eleven =
        "[" + String.join(",", java.util.Collections.nCopies(11, "{\"question\":\"x\"}"));
    var tooMany = post(base, "/api/research", q + eleven + "]}");
    assertThat(tooMany.status()).as(tooMany.body()).isEqualTo(422);
    assertThat(tooMany.error().path("field").asText()).isEqualTo("conversation");

    var longQuestion =
        post(base, "/api/research", q + "[{\"question\":\"" + "x".repeat(4001) + "\"}]}");
    assertThat(longQuestion.status()).as(longQuestion.body()).isEqualTo(422);

    var nullKey =
        post(base, "/api/research/run", q + "[{\"question\":\"x\",\"evidence_keys\":[null]}]}");
    assertThat(nullKey.status()).as(nullKey.body()).isEqualTo(422);
  }
}
