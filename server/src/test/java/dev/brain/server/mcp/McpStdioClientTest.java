package dev.brain.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP Java SDK's client over stdio, spawning the real {@code brain mcp} (a child JVM on the
 * test classpath) on a copy of the sample-vault index; the child must be gone after the client
 * closes.
 */
class McpStdioClientTest extends BaseMcpClientTestCase {
  @TempDir static Path temp;
  private static Path data;
  private static McpSyncClient client;

  @BeforeAll
  static void connect() {
    data = McpTestData.copyOfSampleVault(temp);
    List<String> cmd = McpTestData.brainMcpCommand(data);
    var params =
        ServerParameters.builder(cmd.get(0))
            .args(cmd.subList(1, cmd.size()))
            .env(McpTestData.childEnvironment())
            .build();
    var transport = new StdioClientTransport(params, new JacksonMcpJsonMapper(new ObjectMapper()));
    client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofMinutes(2))
            .initializationTimeout(Duration.ofMinutes(2))
            .build();
    client.initialize();
  }

  @AfterAll
  static void closeAndCheckTheChildExited() throws Exception {
    client.closeGracefully();
    // The server exits when its stdin closes: no child process may be left behind.
    for (ProcessHandle child : ProcessHandle.current().children().toList()) {
      child.onExit().get(1, java.util.concurrent.TimeUnit.MINUTES);
    }
    assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive)).isEmpty();
  }

  @Override
  McpSyncClient client() {
    return client;
  }

  @Override
  Path data() {
    return data;
  }
}
