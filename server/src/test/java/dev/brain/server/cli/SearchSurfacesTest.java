package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.server.http.BrainServer;
import dev.brain.server.http.SampleVaultData;
import dev.brain.server.mcp.BrainTools;
import dev.brain.server.mcp.ToolInputException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One search request on every surface: {@code brain search} (in its own process and through a
 * running server), {@code GET /api/search} and the MCP tool {@code brain_search} read the same
 * {@link dev.brain.SearchRequest}, completed from the same {@code brain.yaml}, and a bad field is
 * named as each surface spells it.
 */
class SearchSurfacesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private static final String QUERY = "espresso";

  @TempDir static Path data;
  private static BrainServer server;
  private static ServerAdvertisement.Published advertisement;
  private static Brain brain;
  private static BrainTools tools;

  record Run(int code, String out, String err) {}

  @BeforeAll
  static void serveTheSampleIndexWithALimitInBrainYaml() throws IOException {
    SampleVaultData.copyTo(data);
    Files.writeString(data.resolve("brain.yaml"), "retrieval:\n  limit: 3\n");
    var config = BrainConfig.load(data);
    server =
        BrainServer.start(config.withServer(config.server().withPort(0)), ServerCommands.INSTANCE);
    advertisement = ServerAdvertisement.publish(data, server);
    brain = Brain.openReadOnly(config);
    tools = new BrainTools(brain);
  }

  @AfterAll
  static void stop() throws IOException {
    if (brain != null) {
      brain.close();
    }
    if (advertisement != null) {
      advertisement.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void theRetrievalLimitOfBrainYamlReachesEverySurfaceTheSameWay() throws Exception {
    assertThat(RunningServer.find(data)).as("the CLI finds the running server").isPresent();
    var local = cli("search", "--local", "--json", QUERY);
    var served = cli("search", "--json", QUERY);
    var http = http("/api/search?q=" + QUERY);
    var mcp = JSON.valueToTree(tools.search(Map.of("query", QUERY)).structured());

    List<String> keys = keys(JSON.readTree(local.out()));
    assertThat(keys).hasSize(3);
    assertThat(keys(JSON.readTree(served.out()))).as("the CLI through the server").isEqualTo(keys);
    assertThat(keys(JSON.readTree(http.body()))).as("GET /api/search").isEqualTo(keys);
    assertThat(keys(mcp)).as("MCP brain_search").isEqualTo(keys);
  }

  @Test
  void aBadFlagIsAUsageErrorNamingTheFlagHereAndThroughTheServer() {
    for (boolean local : List.of(true, false)) {
      var lanes = cli(args(local, "--lanes", "bm25,magic", QUERY));
      assertThat(lanes.code()).isEqualTo(2);
      assertThat(lanes.err().lines().findFirst().orElseThrow())
          .startsWith("brain: invalid --lanes: unknown lane 'magic' (allowed: bm25, vector");
      // Checked by the search itself, against the index: in the server when one runs.
      var type = cli(args(local, "--source-type", "fax", QUERY));
      assertThat(type.code()).as(type.err()).isEqualTo(2);
      assertThat(type.err()).startsWith("brain: invalid --source-type: unknown source type 'fax'");
      assertThat(cli(args(local, "--since", "yesterday", QUERY)).err())
          .startsWith("brain: invalid --since: must be a day as YYYY-MM-DD, got 'yesterday'");
    }
  }

  @Test
  void aBadParameterIsA422EnvelopeNamingTheParameter() throws Exception {
    var tags = http("/api/search?q=" + QUERY + "&tag=a".repeat(33));
    assertThat(tags.statusCode()).isEqualTo(422);
    JsonNode error = JSON.readTree(tags.body()).path("error");
    assertThat(error.path("code").asText()).isEqualTo("invalid_option");
    assertThat(error.path("field").asText()).isEqualTo("tags");
    assertThat(error.path("message").asText()).contains("at most 32 entries, got 33");

    var query = http("/api/search?q=" + "w".repeat(4_001));
    assertThat(query.statusCode()).isEqualTo(422);
    assertThat(JSON.readTree(query.body()).path("error").path("field").asText()).isEqualTo("q");
  }

  @Test
  void aBadArgumentIsAToolErrorNamingTheArgument() {
    assertThatThrownBy(() -> tools.search(Map.of("query", QUERY, "kinds", List.of("thing"))))
        .isInstanceOfSatisfying(
            ToolInputException.class, e -> assertThat(e.argument()).isEqualTo("kinds"))
        .hasMessageContaining("unknown kind 'thing'");
    assertThatThrownBy(() -> tools.search(Map.of("query", QUERY, "limit", 101)))
        .isInstanceOfSatisfying(
            ToolInputException.class, e -> assertThat(e.argument()).isEqualTo("limit"))
        .hasMessageContaining("must be between 1 and 100, got 101");
    for (Object notAWholeNumber : List.of("5", 5.5)) {
      assertThatThrownBy(() -> tools.search(Map.of("query", QUERY, "limit", notAWholeNumber)))
          .as("limit %s is never converted", notAWholeNumber)
          .isInstanceOfSatisfying(
              ToolInputException.class, e -> assertThat(e.argument()).isEqualTo("limit"))
          .hasMessageContaining("'limit' has the wrong type");
    }
    assertThatThrownBy(() -> tools.search(Map.of("query", QUERY, "limt", 3)))
        .isInstanceOfSatisfying(
            ToolInputException.class, e -> assertThat(e.argument()).isEqualTo("limt"));
  }

  private static String[] args(boolean local, String... rest) {
    var args = new ArrayList<>(List.of("search"));
    if (local) {
      args.add("--local");
    }
    args.addAll(List.of(rest));
    return args.toArray(String[]::new);
  }

  private static Run cli(String... args) {
    var all = new ArrayList<>(List.of("--data", data.toString()));
    all.addAll(List.of(args));
    var out = new StringWriter();
    var err = new StringWriter();
    int code =
        BrainCommand.run(
            new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
    return new Run(code, out.toString(), err.toString());
  }

  private static HttpResponse<String> http(String path) throws Exception {
    URI uri = server.url().resolve(path);
    return HTTP.send(
        HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static List<String> keys(JsonNode result) {
    var keys = new ArrayList<String>();
    result.path("rows").forEach(row -> keys.add(row.path("source_key").asText()));
    return keys;
  }
}
