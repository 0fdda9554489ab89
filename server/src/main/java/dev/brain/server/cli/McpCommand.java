package dev.brain.server.cli;

import dev.brain.server.mcp.BrainMcp;
import dev.brain.server.mcp.BrainTools;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * {@code brain mcp}: brain as an MCP server on stdio, for Claude Code, Codex and any MCP client.
 * stdout carries JSON-RPC only — everything else the process prints goes to stderr — and the server
 * exits when stdin ends.
 */
@Command(
    name = "mcp",
    mixinStandardHelpOptions = true,
    description = {
      "Serve brain's read-only research tools over MCP on stdin/stdout (for Claude Code, Codex"
          + " and other MCP clients). Exits when stdin closes.",
      "Over HTTP, 'brain serve' offers the same server at /mcp."
    })
final class McpCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Override
  public Integer call() throws Exception {
    // Fails before taking stdout when there is no index (the message says how to create one).
    brain.existingIndexConfig();
    // The protocol owns the process's stdout; anything else printed goes to stderr.
    OutputStream protocol = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out));
    System.setOut(System.err);
    try (var opened = brain.openExisting()) {
      var tools = new BrainTools(opened);
      BrainMcp.serveStdio(tools, new FileInputStream(FileDescriptor.in), protocol);
    }
    return 0;
  }
}
