package dev.brain.server.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;

/**
 * A tiny stdio MCP server for import tests, run as a child JVM: {@code echo} (read-only, echoes
 * {@code text}), {@code secret} (read-only), {@code write_note} (declares no read-only hint) and
 * {@code fail} (always a tool error). Each tool's result says which environment value {@code
 * TINY_GREETING} the server saw, so tests can check that a file's {@code env} reached it.
 */
final class TinyMcpServer {
  private TinyMcpServer() {}

  public static void main(String[] args) throws InterruptedException {
    var mapper = new JacksonMcpJsonMapper(new ObjectMapper());
    var transport = new StdioTransport(mapper, System.in, System.out, BrainMcp.MAX_MESSAGE_BYTES);
    String greeting = System.getenv().getOrDefault("TINY_GREETING", "(unset)");
    var server =
        McpServer.sync(transport)
            .serverInfo("tiny", "1")
            .jsonMapper(mapper)
            .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
            .tools(
                List.of(
                    tool("echo", true, a -> greeting + ": " + a.get("text"), false),
                    tool("secret", true, a -> "the secret", false),
                    tool("write_note", false, a -> "wrote " + a.get("text"), false),
                    tool("fail", true, a -> "it broke on purpose", true)))
            .build();
    try {
      transport.awaitEnd();
    } finally {
      server.close();
    }
  }

  private static SyncToolSpecification tool(
      String name,
      boolean readOnly,
      java.util.function.Function<Map<String, Object>, String> body,
      boolean error) {
    Map<String, Object> schema =
        Map.of("type", "object", "properties", Map.of("text", Map.of("type", "string")));
    return SyncToolSpecification.builder()
        .tool(
            McpSchema.Tool.builder(name, schema)
                .description("tiny " + name)
                .annotations(
                    readOnly
                        ? new McpSchema.ToolAnnotations(name, true, false, true, false, null)
                        : null)
                .build())
        .callHandler(
            (exchange, request) ->
                McpSchema.CallToolResult.builder()
                    .addTextContent(body.apply(request.arguments()))
                    .isError(error)
                    .build())
        .build();
  }
}
