package dev.brain.server.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.server.http.BrainServer;
import dev.brain.server.http.SampleVaultData;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP Java SDK's client over Streamable HTTP against a real {@code brain serve} (port 0) on a
 * copy of the sample-vault index.
 */
class McpHttpClientTest extends BaseMcpClientTestCase {
  @TempDir static Path temp;
  private static Path data;
  private static BrainServer server;
  private static McpSyncClient client;

  @BeforeAll
  static void connect() throws Exception {
    data = McpTestData.copyOfSampleVault(temp);
    server = BrainServer.start(SampleVaultData.onAnyPort(data));
    var transport =
        HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port())
            .endpoint("/mcp")
            .jsonMapper(new JacksonMcpJsonMapper(new ObjectMapper()))
            .build();
    client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofMinutes(2))
            .initializationTimeout(Duration.ofMinutes(2))
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

  @Override
  McpSyncClient client() {
    return client;
  }

  @Override
  Path data() {
    return data;
  }
}
