package dev.brain.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading {@code .mcp.json} files: what is accepted and the errors for what is not. */
class McpConfigFileTest {
  @TempDir Path tmp;

  private Path file(String json) throws Exception {
    Path f = tmp.resolve(".mcp.json");
    Files.writeString(f, json);
    return f;
  }

  private String error(String json) throws Exception {
    Path f = file(json);
    var thrown =
        assertThatThrownBy(
                () -> McpToolImport.connect(List.of(f), Map.of(), Set.of(), Duration.ofSeconds(5)))
            .isInstanceOf(McpConfigException.class)
            .actual();
    String message = thrown.getMessage();
    assertThat(message).startsWith(f.toString()).doesNotContain("Exception");
    return message;
  }

  @Test
  void notJsonSaysWhere() throws Exception {
    assertThat(error("{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",,}\n}}"))
        .contains("line 3", "not valid JSON");
  }

  @Test
  void badShapesNameTheKey() throws Exception {
    assertThat(error("{\"servers\": {}}")).contains("mcpServers: missing");
    assertThat(error("{\"mcpServers\": []}")).contains("mcpServers: expected an object");
    assertThat(error("{\"mcpServers\": {\"a\": {\"args\": []}}}"))
        .contains("mcpServers.a: needs 'command'");
    assertThat(error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": \"-v\"}}}"))
        .contains("mcpServers.a.args: expected an array of strings");
    assertThat(error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": [1]}}}"))
        .contains("mcpServers.a.args[0]: expected a string");
    assertThat(error("{\"mcpServers\": {\"a\": {\"url\": \"ftp://h/mcp\"}}}"))
        .contains("mcpServers.a.url: expected an http:// or https:// URL");
    assertThat(
            error(
                "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"x-brain\": {\"aliases\":"
                    + " {\"t\": \"no spaces\"}}}}}"))
        .contains("mcpServers.a.x-brain.aliases.t: 'no spaces' is not a tool name");
    assertThat(
            error(
                "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"x-brain\": {\"deny\": \"t\"}}}}"))
        .contains("mcpServers.a.x-brain.deny: expected an array of strings");
  }

  @Test
  void anUnsetVariableWithoutDefaultIsAnError() throws Exception {
    assertThat(error("{\"mcpServers\": {\"a\": {\"command\": \"${NOPE_NOT_SET}\"}}}"))
        .contains("mcpServers.a.command: uses ${NOPE_NOT_SET}, which is not set");
  }

  @Test
  void variablesExpandAndUnknownFieldsAreIgnored() throws Exception {
    Path f =
        file(
            """
            {"mcpServers": {"a": {"type": "stdio", "command": "${BIN:-node}",
              "args": ["${DIR}/server.js"], "env": {"TOKEN": "${TOKEN:-}"}, "cwd": "/x"}},
             "other": true}
            """);
    var server = McpConfigFile.read(f, Map.of("DIR", "/opt")).servers().get(0);
    assertThat(server.command()).containsExactly("node", "/opt/server.js");
    assertThat(server.env()).containsEntry("TOKEN", "");
    assertThat(server.allow()).isEmpty();
    assertThat(server.aliases()).isEmpty();
  }
}
