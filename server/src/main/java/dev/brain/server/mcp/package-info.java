/**
 * brain's MCP server: the read-only tools ({@link dev.brain.server.mcp.BrainTools}), the {@code
 * brain_research} prompt and the {@code brain://} resources, over stdio ({@code brain mcp}) and
 * Streamable HTTP ({@code /mcp} on {@code brain serve}), on the MCP Java SDK.
 */
package dev.brain.server.mcp;
