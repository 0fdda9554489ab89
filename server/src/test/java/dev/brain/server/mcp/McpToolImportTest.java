package dev.brain.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.models.chat.ChatListener;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatRequest;
import dev.brain.models.chat.ChatResponse;
import dev.brain.research.agent.AgentBudgets;
import dev.brain.research.agent.AgentController;
import dev.brain.research.agent.AgentEvent;
import dev.brain.research.agent.AgentTool;
import dev.brain.research.agent.ToolPolicy;
import dev.brain.server.http.BrainServer;
import dev.brain.server.http.SampleVaultData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code .mcp.json} import against real MCP servers: {@code brain mcp} and {@link TinyMcpServer} as
 * child JVMs, brain's Streamable HTTP endpoint on a real server, and a server entry whose program
 * does not exist.
 */
class McpToolImportTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @TempDir static Path temp;
  private static BrainServer http;
  private static McpToolImport imported;

  @BeforeAll
  static void importTwoFiles() throws Exception {
    Path data = McpTestData.copyOfSampleVault(temp);
    http = BrainServer.start(SampleVaultData.onAnyPort(data));
    List<String> brain = McpTestData.brainMcpCommand(data);
    var withXBrain =
        Map.of(
            "mcpServers",
            Map.of(
                "brain",
                Map.of(
                    "command",
                    brain.get(0),
                    "args",
                    brain.subList(1, brain.size()),
                    "env",
                    McpTestData.childEnvironment()),
                "tiny",
                Map.of(
                    "command",
                    java(),
                    "args",
                    List.of(TinyMcpServer.class.getName()),
                    "env",
                    Map.of("CLASSPATH", "${TEST_CLASSPATH}", "TINY_GREETING", "hello"),
                    "x-brain",
                    Map.of(
                        "aliases", Map.of("echo", "shout"),
                        "toolsets", Map.of("private", List.of("secret")),
                        "deny", List.of("private"))),
                "web",
                Map.of(
                    "url",
                    "http://127.0.0.1:" + http.port() + "/mcp",
                    "headers",
                    Map.of("X-Test", "1"),
                    "x-brain",
                    Map.of("allow", List.of("brain_status"))),
                "broken",
                Map.of("command", temp.resolve("no-such-program").toString())));
    Path first = temp.resolve("brain.mcp.json");
    Files.writeString(first, JSON.writeValueAsString(withXBrain));
    // As Claude Code writes it: a type field, other unknown fields, no x-brain.
    Path claude = temp.resolve(".mcp.json");
    Files.writeString(
        claude,
        """
        {
          "mcpServers": {
            "tiny2": {
              "type": "stdio",
              "command": "%s",
              "args": ["%s"],
              "env": {"CLASSPATH": "${TEST_CLASSPATH}"},
              "timeout": 30000
            }
          },
          "projectNote": "ignored"
        }
        """
            .formatted(java(), TinyMcpServer.class.getName()));
    imported =
        McpToolImport.connect(
            List.of(first, claude),
            Map.of("TEST_CLASSPATH", System.getProperty("java.class.path")),
            Set.of("summarize"),
            TIMEOUT);
  }

  @AfterAll
  static void closeAndCheckTheChildrenExited() throws Exception {
    if (imported != null) {
      imported.close();
    }
    if (http != null) {
      http.close();
    }
    for (ProcessHandle child : ProcessHandle.current().children().toList()) {
      child.onExit().get(1, TimeUnit.MINUTES);
    }
    assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive)).isEmpty();
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static AgentTool tool(String name) {
    return imported.tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void toolsAreNamedServerUnderscoreToolUnlessAliased() {
    assertThat(imported.tools())
        .extracting(AgentTool::name)
        .contains(
            "brain__brain_search",
            "brain__brain_get",
            "shout",
            "tiny__secret",
            "web__brain_status",
            "tiny2__echo",
            "tiny2__write_note")
        .doesNotContain("tiny__echo", "web__brain_search");
    assertThat(imported.denied()).containsExactly("tiny__secret");
  }

  @Test
  void importedToolsAreCallable() throws Exception {
    String rows = tool("brain__brain_search").call(JSON.readTree("{\"query\":\"espresso\"}"));
    assertThat(JSON.readTree(rows).path("rows").get(0).path("source_key").asText())
        .matches("[a-z-]+:.+");
    assertThat(tool("shout").call(JSON.readTree("{\"text\":\"hi\"}"))).isEqualTo("hello: hi");
    assertThat(tool("tiny2__echo").call(JSON.readTree("{\"text\":\"x\"}"))).isEqualTo("(unset): x");
    String status = tool("web__brain_status").call(JSON.readTree("{}"));
    assertThat(JSON.readTree(status).path("records").asInt()).isPositive();
  }

  @Test
  void aToolErrorIsAFailureWithTheServersMessage() {
    assertThatThrownBy(() -> tool("tiny__fail").call(JSON.readTree("{}")))
        .isInstanceOf(AgentTool.ToolFailure.class)
        .hasMessage("it broke on purpose");
  }

  @Test
  void theBrokenServerIsReportedAndTheOthersLoad() {
    assertThat(imported.failures())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.server()).isEqualTo("broken");
              assertThat(f.line())
                  .contains(
                      "MCP server 'broken'",
                      "brain.mcp.json",
                      "did not start",
                      "no program at '" + temp.resolve("no-such-program") + "'");
              assertThat(f.message()).doesNotContain("Exception");
            });
  }

  @Test
  void aDeniedToolIsNotShownAndRefusedIfCalledAnyway() {
    var model = new Scripted("tiny__secret", "tiny2__write_note", "shout");
    var policy = ToolPolicy.readOnly().denying(imported.denied());
    var controller =
        new AgentController(
            model, imported.tools(), policy, AgentBudgets.defaults().withMaxTurns(4));

    var result = controller.run("what is the secret?", null, null);

    var shown = model.requests.get(0).tools().stream().map(ChatRequest.ToolSpec::name).toList();
    assertThat(shown).contains("shout", "brain__brain_search").doesNotContain("tiny__secret");
    // A tool that does not declare itself read-only is not shown either: agent runs only read.
    assertThat(shown).doesNotContain("tiny2__write_note");
    assertThat(result.events())
        .filteredOn(e -> e.type().equals("tool_refused"))
        .extracting(AgentEvent::tool, AgentEvent::message)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "tiny__secret", "tool 'tiny__secret' is denied by policy; do not call it again"),
            org.assertj.core.groups.Tuple.tuple(
                "tiny2__write_note",
                "tool 'tiny2__write_note' writes, and agent runs are read-only; do not call it"
                    + " again"));
    assertThat(result.events())
        .filteredOn(e -> e.type().equals("tool_call"))
        .extracting(AgentEvent::tool)
        .containsExactly("shout");
  }

  /** A controller that calls each named tool in turn, then answers. */
  private static final class Scripted implements ChatModel {
    final List<ChatRequest> requests = new ArrayList<>();
    private final List<String> calls;

    Scripted(String... calls) {
      this.calls = List.of(calls);
    }

    @Override
    public String id() {
      return "scripted/import-test";
    }

    @Override
    public ChatResponse chat(ChatRequest request, ChatListener listener) {
      requests.add(request);
      int turn = requests.size() - 1;
      if (turn < calls.size()) {
        var call = new ChatResponse.ToolCall("c" + turn, calls.get(turn), "{\"text\":\"hi\"}");
        return new ChatResponse("", List.of(call), id(), -1, -1);
      }
      return new ChatResponse("Nothing in the corpus says.", List.of(), id(), -1, -1);
    }

    @Override
    public void close() {}
  }
}
