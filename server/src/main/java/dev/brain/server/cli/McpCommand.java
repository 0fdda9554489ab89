package dev.brain.server.cli;

import dev.brain.index.BrainIndex;
import dev.brain.retrieval.Retriever;
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
    var config = brain.existingIndexConfig();
    // The protocol owns the process's stdout; anything else printed goes to stderr.
    OutputStream protocol = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out));
    System.setOut(System.err);
    try (var index = BrainIndex.openReadOnly(config, null)) {
      var tools = new BrainTools(index, new Retriever(index));
      BrainMcp.serveStdio(tools, new FileInputStream(FileDescriptor.in), protocol);
    }
    return 0;
  }
}
