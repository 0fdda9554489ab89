package dev.brain.server.mcp;

/**
 * A {@code .mcp.json} file brain cannot use: not JSON, or a key with the wrong shape. The message
 * names the file and the key (e.g. {@code .mcp.json: mcpServers.notes.args: expected an array of
 * strings}).
 */
public final class McpConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  McpConfigException(String message) {
    super(message);
  }
}
