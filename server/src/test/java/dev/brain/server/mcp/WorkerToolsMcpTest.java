package dev.brain.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import dev.brain.models.chat.FakeOllamaServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: the agent's worker tools over MCP. {@code brain_summarize} and {@code brain_extract}
 * are offered only with {@code agent.worker-model} set, and call that model (here the fake Ollama
 * server, speaking its NDJSON wire format); a reply that stays malformed is a tool error.
 */
class WorkerToolsMcpTest {

  @TempDir static Path dir;
  static Path data;
  static FakeOllamaServer ollama;

  @BeforeAll
  static void index() throws Exception {
    ollama = FakeOllamaServer.start();
    Path vault = Files.createDirectories(dir.resolve("vault"));
    Files.writeString(vault.resolve("Grinder.md"), "# Grinder\n\nConical burrs at setting 15.\n");
    data = dir.resolve("data");
    CollectionsFile.of(data).write(List.of(CollectionRoot.of("vault", vault)));
    try (Brain brain = Brain.open(data)) {
      brain.index(List.of(vault), null);
    }
  }

  @AfterAll
  static void stop() {
    ollama.close();
  }

  /** The data directory's configuration with {@code yaml} as its brain.yaml. */
  private static BrainConfig config(String yaml) throws Exception {
    Files.writeString(data.resolve("brain.yaml"), yaml);
    return BrainConfig.load(data);
  }

  private static BrainConfig withWorker() throws Exception {
    return config(
        "chat:\n  ollama-url: " + ollama.baseUrl() + "\nagent:\n  worker-model: ollama/worker\n");
  }

  private static CallToolResult call(BrainConfig config, String tool, Map<String, Object> args)
      throws Exception {
    try (Brain brain = Brain.openReadOnly(config)) {
      var handlers = BrainMcp.handlers(new BrainTools(brain));
      return BrainMcp.call(tool, handlers.get(tool), args);
    }
  }

  private static List<String> names(BrainConfig config) throws Exception {
    try (Brain brain = Brain.openReadOnly(config)) {
      return BrainMcp.toolSpecifications(new BrainTools(brain)).stream()
          .map(s -> s.tool().name())
          .toList();
    }
  }

  private static String text(CallToolResult result) {
    return ((McpSchema.TextContent) result.content().getFirst()).text();
  }

  @Test
  void theWorkerToolsAreOfferedOnlyWithAWorkerModel() throws Exception {
    assertThat(names(config("")))
        .contains("brain_search")
        .doesNotContain("brain_summarize", "brain_extract");
    assertThat(names(withWorker())).contains("brain_summarize", "brain_extract");
    // The agent has its own summarize and extract: its local copy of the MCP tools has neither.
    assertThat(ToolCatalog.tools()).noneMatch(t -> t.name().startsWith("brain_summ"));
  }

  @Test
  void summarizeReturnsTheWorkersSummaryAndSendsItTheText() throws Exception {
    ollama.enqueue(
        FakeOllamaServer.answer(
            "worker",
            List.of("{\"summary\": \"Burrs at 15.\", \"key_points\": [\"setting 15\"]}"),
            50,
            20));

    CallToolResult result =
        call(
            withWorker(),
            "brain_summarize",
            Map.of(
                "text", "[note:vault/Grinder.md] Conical burrs at setting 15.", "goal", "grind"));

    assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
    assertThat(result.structuredContent())
        .isEqualTo(Map.of("summary", "Burrs at 15.", "key_points", List.of("setting 15")));
    assertThat(ollama.lastRequest().body())
        .contains("\"worker\"", "Conical burrs at setting 15", "grind");
  }

  @Test
  void extractValidatesAgainstTheSchemaAndAStillMalformedReplyIsAToolError() throws Exception {
    String schema = "{\"type\":\"object\",\"required\":[\"setting\"]}";
    ollama.enqueue(FakeOllamaServer.answer("worker", List.of("{\"setting\": 15}"), 50, 5));
    CallToolResult ok =
        call(
            withWorker(),
            "brain_extract",
            Map.of("text", "Conical burrs at setting 15.", "schema", Map.of("type", "object")));
    assertThat(ok.structuredContent()).isEqualTo(Map.of("extracted", Map.of("setting", 15)));

    ollama.enqueue(FakeOllamaServer.answer("worker", List.of("not json"), 50, 5));
    ollama.enqueue(FakeOllamaServer.answer("worker", List.of("{\"other\": 1}"), 50, 5));
    CallToolResult bad =
        call(
            withWorker(),
            "brain_extract",
            Map.of(
                "text",
                "Conical burrs at setting 15.",
                "schema",
                new com.fasterxml.jackson.databind.ObjectMapper().readValue(schema, Map.class)));
    assertThat(bad.isError()).isTrue();
    assertThat(text(bad)).startsWith("brain_extract: ").doesNotContain("Exception");
  }

  @Test
  void withoutAWorkerModelACallSaysHowToTurnItOn() throws Exception {
    CallToolResult off = call(config(""), "brain_summarize", Map.of("text", "anything at all"));
    assertThat(off.isError()).isTrue();
    assertThat(text(off)).contains("set agent.worker-model in brain.yaml");
  }
}
