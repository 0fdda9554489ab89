package dev.brain.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/mcp.md's table of tools is the catalogue an MCP client lists, every tool once. */
class McpDocsTest {

  @Test
  void theMcpPageListsEveryToolOfTheCatalogueAndNoOther() throws IOException {
    String page = Files.readString(Path.of("..", "docs", "mcp.md"));
    var documented = new TreeSet<String>();
    var rows =
        Pattern.compile("(?m)^\\| (`brain_[a-z_]+`(?: / `brain_[a-z_]+`)*) \\|").matcher(page);
    while (rows.find()) {
      var names = Pattern.compile("`(brain_[a-z_]+)`").matcher(rows.group(1));
      while (names.find()) {
        documented.add(names.group(1));
      }
    }
    var catalogue = new TreeSet<String>();
    ToolCatalog.tools(true, true).stream().map(McpSchema.Tool::name).forEach(catalogue::add);

    assertThat(documented).isEqualTo(catalogue);
  }
}
