package dev.brain.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.McpSettings;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import dev.brain.models.chat.ChatConfig;
import dev.brain.models.chat.FakeHttpServer;
import dev.brain.server.http.BrainServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP with the configured chat model's server down (nothing listens on its loopback port), over a
 * real server and the MCP Java SDK's HTTP client: the research tools answer with the evidence and
 * say the model could not be reached, as the Chat and {@code brain research} do, instead of an
 * error.
 */
class McpModelDownTest {
  @TempDir static Path dir;
  static Path vault;
  static BrainServer server;
  static McpSyncClient client;

  @BeforeAll
  static void start() throws Exception {
    vault = Files.createDirectories(dir.resolve("vault"));
    Files.writeString(vault.resolve("Grinder.md"), "# Grinder\n\nConical burrs, see [[Burrs]].\n");
    Files.writeString(vault.resolve("Burrs.md"), "# Burrs\n\nConical burrs keep retention low.\n");
    Path data = dir.resolve("data");
    CollectionsFile.of(data).write(List.of(CollectionRoot.of("vault", vault)));
    try (Brain brain = Brain.open(data)) {
      brain.index(List.of(vault), null);
    }
    var servers =
        ChatConfig.defaults()
            .withOllamaUrl(FakeHttpServer.refusingUrl())
            .withOpenAiUrl(URI.create(FakeHttpServer.refusingUrl() + "/v1"));
    BrainConfig config = BrainConfig.load(data).withMcp(new McpSettings(true));
    config =
        config
            .withChat(config.chat().withServers(servers).withModel("ollama/llama3.2"))
            .withServer(config.server().withPort(0));
    server = BrainServer.start(config);
    client =
        McpClient.sync(
                HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port())
                    .endpoint("/mcp")
                    .addHttpRequestCustomizer(
                        (request, method, uri, body, context) ->
                            request.header("Authorization", "Bearer " + server.clientToken()))
                    .jsonMapper(new JacksonMcpJsonMapper(new ObjectMapper()))
                    .build())
            .requestTimeout(Duration.ofMinutes(1))
            .initializationTimeout(Duration.ofMinutes(1))
            .build();
    client.initialize();
  }

  @AfterAll
  static void stop() {
    if (client != null) {
      client.closeGracefully();
    }
    if (server != null) {
      server.close();
    }
  }

  static String text(CallToolResult result) {
    return result.content().stream()
        .filter(c -> c instanceof McpSchema.TextContent)
        .map(c -> ((McpSchema.TextContent) c).text())
        .collect(Collectors.joining("\n"));
  }

  private static CallToolResult call(String tool, Map<String, Object> arguments) {
    return client.callTool(CallToolRequest.builder(tool).arguments(arguments).build());
  }

  @Test
  void noteResearchReturnsTheEvidenceWithANoteInsteadOfAnErrorAndWritesNothing() throws Exception {
    String before = Files.readString(vault.resolve("Grinder.md"));

    CallToolResult result = call("brain_research_note", Map.of("path", "note:vault/Grinder.md"));

    assertThat(result.isError()).as(text(result)).isNotEqualTo(true);
    assertThat(text(result))
        .startsWith("model unreachable: showing the evidence; nothing was written")
        .contains("ollama/llama3.2", "connection refused", "## Research", "[[Burrs]]");
    @SuppressWarnings("unchecked")
    Map<String, Object> out = (Map<String, Object>) result.structuredContent();
    assertThat((String) out.get("model_unavailable")).contains("ollama/llama3.2");
    assertThat(out).containsEntry("written", false).containsEntry("dry_run", true);
    assertThat((String) out.get("section")).contains("## Research", "[[Burrs]]");
    assertThat(Files.readString(vault.resolve("Grinder.md"))).isEqualTo(before);
  }

  @Test
  void theResearchPackStillAnswersWithItsEvidenceAndSaysThePlannerWasNotReached() {
    CallToolResult result =
        call("brain_research_pack", Map.of("question", "What keeps retention low?"));

    assertThat(result.isError()).as(text(result)).isNotEqualTo(true);
    assertThat(text(result))
        .contains("[note:vault/Burrs.md]", "planner not used", "ollama/llama3.2");
  }

  @Test
  void aRefusalThatIsNotTheModelStaysAToolError() {
    CallToolResult result = call("brain_research_note", Map.of("path", "note:vault/Missing.md"));

    assertThat(result.isError()).isTrue();
    assertThat(text(result)).doesNotContain("model unreachable");
  }
}
