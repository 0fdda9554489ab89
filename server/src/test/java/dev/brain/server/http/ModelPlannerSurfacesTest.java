package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.models.chat.FakeOpenAiServer;
import dev.brain.server.mcp.BrainTools;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * With {@code chat.planner-model} set, every surface plans with it, as {@code brain research} does:
 * the pack of {@code POST /api/research} and the MCP research pack, against the fake
 * OpenAI-compatible server; a run of {@code POST /api/research/run} asks it when the deterministic
 * plan's evidence is weak (the planner policy {@code auto}), and its timeline says whether the
 * model was asked and why; when the model fails, the deterministic plan is used and the reason
 * shown.
 */
class ModelPlannerSurfacesTest {
  private static final String PLANNER = "planner-7b";
  private static final String QUESTION = "How often should I descale the espresso machine?";

  /** A question naming a machine the vault never mentions: the deterministic plan finds little. */
  private static final String WEAK_QUESTION = "How often should I descale the Rancilio Silvia?";

  private static final String PLAN =
      "{\"concepts\":[{\"preferred\":\"descaling\",\"terms\":[\"decalcify\"]}],"
          + "\"variants\":[{\"query\":\"descale interval water hardness\",\"reason\":\"when\"}]}";

  private static FakeOpenAiServer openai;
  private static BrainConfig config;
  private static BrainServer server;

  @BeforeAll
  static void start() throws Exception {
    openai = FakeOpenAiServer.start();
    var defaults = BrainConfig.defaults(SampleVaultData.dataDir());
    config =
        defaults
            .withChat(
                defaults.chat().withServers(openai.config()).withPlannerModel("openai/" + PLANNER))
            .withServer(defaults.server().withPort(0));
    server = BrainServer.start(config);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (openai != null) {
      openai.close();
    }
  }

  private static void plannerAnswers(String text) {
    openai.enqueue(FakeOpenAiServer.answer(PLANNER, List.of(text), 200, 40));
  }

  @Test
  void thePackOfTheApiIsPlannedByTheModel() throws Exception {
    plannerAnswers(PLAN);
    var reply = Http.post(server.url(), "/api/research", "{\"question\":\"" + QUESTION + "\"}");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    JsonNode plan = reply.json().path("query_plan");
    assertThat(plan.path("planner").asText()).isEqualTo("model_assisted");
    assertThat(plan.path("planner_model").asText()).isEqualTo("openai/" + PLANNER);
    assertThat(plan.toString()).contains("descale interval water hardness");
    // The Chat answers the pack as it got it: a model-assisted plan is no forgery.
    var answer =
        Sse.read(
            Sse.post(
                server.url().resolve("/api/research/synthesize"),
                HttpJson.MAPPER.createObjectNode().set("research_pack", reply.json()).toString()));
    var names = answer.namesWithoutHeartbeats();
    assertThat(names.getLast()).as(answer.rawBody()).isEqualTo("done");
  }

  /** The planning events of a run of {@code question} over SSE. */
  private static List<JsonNode> planningOf(String question) throws Exception {
    var stream =
        Sse.read(
            Sse.post(
                server.url().resolve("/api/research/run"),
                "{\"question\":\"" + question + "\",\"trace\":false}"));
    assertThat(stream.namesWithoutHeartbeats()).contains("done");
    return stream.events().stream()
        .filter(e -> e.name().equals("progress"))
        .map(e -> e.data())
        .filter(d -> d.path("stage").asText().equals("planning"))
        .toList();
  }

  @Test
  void aRunWhoseDeterministicPlanFindsEnoughNeverAsksTheModelAndItsTimelineSaysSo()
      throws Exception {
    int before = openai.requests().size();
    var planning = planningOf(QUESTION);
    assertThat(planning.getFirst().path("message").asText())
        .isEqualTo("Searching with the deterministic plan before asking openai/" + PLANNER);
    assertThat(planning.getLast().path("status").asText()).isEqualTo("completed");
    assertThat(planning.getLast().path("message").asText())
        .contains("openai/" + PLANNER + " not asked, skipped by policy");
    assertThat(planning.getLast().path("data").path("planner_decision").asText())
        .isEqualTo("skipped");
    assertThat(openai.requests()).hasSize(before);
  }

  @Test
  void aRunWithWeakEvidencePlansWithTheModelAndItsTimelineSaysWhy() throws Exception {
    plannerAnswers(PLAN);
    var planning = planningOf(WEAK_QUESTION);
    assertThat(planning.get(1).path("message").asText())
        .startsWith("Asking openai/" + PLANNER + " for a plan: ")
        .contains("evidence from the deterministic plan");
    assertThat(planning.getLast().path("status").asText()).isEqualTo("completed");
    assertThat(planning.getLast().path("data").path("planner_decision").asText())
        .isEqualTo("asked");
  }

  @Test
  void aFailingPlannerFallsBackToTheDeterministicPlanAndSaysWhy() throws Exception {
    openai.enqueue(FakeOpenAiServer.error(500, "the planner fell over", "server_error"));
    JsonNode failed =
        planningOf(WEAK_QUESTION).stream()
            .filter(d -> d.path("status").asText().equals("failed"))
            .findFirst()
            .orElseThrow();
    assertThat(failed.path("message").asText()).contains("using the deterministic plan");
  }

  @Test
  void theMcpResearchPackIsPlannedByTheModel() throws Exception {
    plannerAnswers(PLAN);
    try (var brain = Brain.openReadOnly(config)) {
      var output = new BrainTools(brain).researchPack(Map.of("question", QUESTION));
      assertThat(output.toString()).contains("model_assisted", "openai/" + PLANNER);
    }
  }
}
