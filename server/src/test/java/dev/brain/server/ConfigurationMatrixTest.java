package dev.brain.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.models.chat.FakeOpenAiServer;
import dev.brain.server.cli.BrainCommand;
import dev.brain.server.http.BrainServer;
import dev.brain.server.mcp.BrainTools;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One configuration, seen everywhere: each key of {@code retrieval.*}, {@code research.*} and
 * {@code chat.*} that changes what a search or a pack returns is set in {@code brain.yaml}, and the
 * CLI, the HTTP API and MCP must all show the change the same way; a request's own value (flag,
 * parameter, argument) still wins over the file.
 */
class ConfigurationMatrixTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String QUERY = "espresso";
  private static final String QUESTION = "How often should I backflush the espresso machine?";

  @TempDir static Path data;
  static FakeOpenAiServer openai;

  @BeforeAll
  static void copyTheSampleIndex() {
    dev.brain.server.http.SampleVaultData.copyTo(data);
    openai = FakeOpenAiServer.start();
  }

  @AfterAll
  static void stop() {
    openai.close();
  }

  /**
   * A setting and how it shows: the brain.yaml lines, the observed value of a search or pack
   * result, what it must be, and a request override with the value it must give instead.
   */
  record Setting(
      String yaml,
      String surface,
      Function<JsonNode, Object> observe,
      Object expected,
      String override,
      Object overridden) {
    @Override
    public String toString() {
      return yaml.strip().replace('\n', ' ');
    }
  }

  private static final String SEARCH = "search";
  private static final String PACK = "pack";

  static List<Setting> settings() {
    Function<JsonNode, Object> rows = r -> r.path("rows").size();
    // The contribution of a BM25 rank-1 hit is weight / (k + 1) under reciprocal-rank fusion.
    Function<JsonNode, Object> bm25Contribution =
        r -> round(bm25RankOne(r).path("contribution").asDouble());
    Function<JsonNode, Object> vectorHits = r -> laneReport(r, "vector").path("hits").asInt();
    Function<JsonNode, Object> planLimit = r -> r.path("query_plan").path("limit").asInt();
    Function<JsonNode, Object> maxChars =
        r -> r.path("query_plan").path("max_chars_per_doc").asInt();
    return List.of(
        new Setting("retrieval:\n  limit: 4\n", SEARCH, rows, 4, "limit=2", 2),
        new Setting(
            "retrieval:\n  rrf-k: 9\n", SEARCH, bm25Contribution, round(1.0 / 10), null, null),
        new Setting(
            "retrieval:\n  weights:\n    bm25: 3.0\n",
            SEARCH,
            bm25Contribution,
            round(3.0 / 61),
            null,
            null),
        new Setting("retrieval:\n  depth: 31\n  limit: 3\n", SEARCH, vectorHits, 31, "limit=2", 31),
        new Setting(
            "retrieval:\n  fusion: normalized\n",
            SEARCH,
            // Reciprocal-rank fusion never passes 3 / 61; min-max scores give the best row >= 1.
            r -> r.path("rows").get(0).path("retrieval").path("fused_score").asDouble() > 0.5,
            true,
            null,
            null),
        new Setting("research:\n  limit: 3\n", PACK, planLimit, 3, "limit=5", 5),
        new Setting(
            "research:\n  max-chars-per-doc: 321\n",
            PACK,
            maxChars,
            321,
            "max_chars_per_doc=400",
            400),
        new Setting(
            "chat:\n  planner-model: openai/matrix-planner\n  openai-url: OPENAI\n",
            PACK,
            r -> r.path("query_plan").path("planner_model").asText(),
            "openai/matrix-planner",
            null,
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("settings")
  void theCliTheHttpApiAndMcpShowTheSameSetting(Setting setting) throws Exception {
    String yaml = setting.yaml().replace("OPENAI", openai.baseUrl().toString());
    Files.writeString(data.resolve("brain.yaml"), yaml);
    var config = BrainConfig.load(data);
    List<JsonNode> seen = new ArrayList<>();
    for (int surface = 0; surface < 3; surface++) {
      enqueuePlan();
      seen.add(
          switch (surface) {
            case 0 -> cli(setting.surface(), null);
            case 1 -> http(config, setting.surface(), null);
            default -> mcp(config, setting.surface(), null);
          });
    }
    for (int i = 0; i < seen.size(); i++) {
      assertThat(setting.observe().apply(seen.get(i)))
          .as(setting + " on " + List.of("the CLI", "HTTP", "MCP").get(i))
          .isEqualTo(setting.expected());
    }
    if (setting.override() != null) {
      for (int surface = 0; surface < 3; surface++) {
        JsonNode result =
            switch (surface) {
              case 0 -> cli(setting.surface(), setting.override());
              case 1 -> http(config, setting.surface(), setting.override());
              default -> mcp(config, setting.surface(), setting.override());
            };
        assertThat(setting.observe().apply(result))
            .as(setting + " overridden by " + setting.override() + " on surface " + surface)
            .isEqualTo(setting.overridden());
      }
    }
  }

  private static void enqueuePlan() {
    openai.enqueue(
        FakeOpenAiServer.answer(
            "matrix-planner", List.of("{\"concepts\":[],\"variants\":[]}"), 100, 10));
  }

  // ---------- the three surfaces ----------

  private static JsonNode cli(String what, String override) throws IOException {
    var args = new ArrayList<>(List.of("--data", data.toString()));
    if (what.equals(SEARCH)) {
      args.addAll(List.of("search", "--local", "--json"));
    } else {
      args.addAll(List.of("research", "--local", "--json", "--retrieval-only"));
    }
    if (override != null) {
      String[] kv = override.split("=");
      args.add("--" + kv[0].replace('_', '-'));
      args.add(kv[1]);
    }
    args.add(what.equals(SEARCH) ? QUERY : QUESTION);
    var out = new StringWriter();
    var err = new StringWriter();
    int code =
        BrainCommand.run(
            new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(String[]::new));
    assertThat(code).as(err.toString()).isZero();
    return JSON.readTree(out.toString());
  }

  private static JsonNode http(BrainConfig config, String what, String override) throws Exception {
    try (var server = BrainServer.start(config.withServer(config.server().withPort(0)))) {
      URI base = server.url();
      HttpResponse<String> res;
      if (what.equals(SEARCH)) {
        String query = "api/search?q=" + QUERY + (override == null ? "" : "&" + override);
        res = HTTP.send(HttpRequest.newBuilder(base.resolve(query)).build(), body());
      } else {
        String extra = "";
        if (override != null) {
          String[] kv = override.split("=");
          extra = ",\"" + kv[0] + "\":" + kv[1];
        }
        res =
            HTTP.send(
                HttpRequest.newBuilder(base.resolve("api/research"))
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"question\":\"" + QUESTION + "\"" + extra + "}"))
                    .build(),
                body());
      }
      assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
      return JSON.readTree(res.body());
    }
  }

  private static JsonNode mcp(BrainConfig config, String what, String override) throws IOException {
    try (var brain = Brain.openReadOnly(config)) {
      var tools = new BrainTools(brain);
      Map<String, Object> args = new java.util.HashMap<>();
      if (override != null) {
        String[] kv = override.split("=");
        args.put(kv[0], Integer.parseInt(kv[1]));
      }
      BrainTools.ToolOutput output;
      if (what.equals(SEARCH)) {
        args.put("query", QUERY);
        output = tools.search(args);
      } else {
        args.put("question", QUESTION);
        output = tools.researchPack(args);
      }
      return JSON.valueToTree(output.structured());
    }
  }

  private static HttpResponse.BodyHandler<String> body() {
    return HttpResponse.BodyHandlers.ofString();
  }

  /** The BM25 lane score of the row BM25 ranked first. */
  private static JsonNode bm25RankOne(JsonNode result) {
    for (JsonNode row : result.path("rows")) {
      for (JsonNode lane : row.path("retrieval").path("lanes")) {
        if (lane.path("name").asText().equals("bm25") && lane.path("rank").asInt() == 1) {
          return lane;
        }
      }
    }
    throw new AssertionError("no BM25 rank-1 row in " + result);
  }

  private static JsonNode laneReport(JsonNode result, String name) {
    for (JsonNode lane : result.path("lanes")) {
      if (lane.path("name").asText().equals(name)) {
        return lane;
      }
    }
    throw new AssertionError("no " + name + " report in " + result);
  }

  private static double round(double v) {
    return Math.round(v * 1e6) / 1e6;
  }
}
