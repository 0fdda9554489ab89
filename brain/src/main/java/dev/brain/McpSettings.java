package dev.brain;

/**
 * {@code mcp.*}: the MCP server.
 *
 * @param allowWrites offer the one writing tool, {@code brain_research_note}; default false. Env
 *     {@code BRAIN_MCP_ALLOW_WRITES}
 */
public record McpSettings(boolean allowWrites) {

  /** The {@code mcp.*} values of {@code r}: flag, environment, file or default. */
  static McpSettings read(ConfigReader r) {
    return new McpSettings(r.bool("mcp.allow-writes", "BRAIN_MCP_ALLOW_WRITES", false));
  }
}
