package dev.brain.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.brain.server.http.BrainServer;
import dev.brain.server.http.SampleVaultData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A non-Java client: {@code src/test/node/mcp-client.mjs} on the official TypeScript MCP SDK talks
 * to a real brain on the sample vault over stdio and over HTTP (research pack, then get-many on the
 * top keys, which must be real records). Its output is printed into the test run. Skipped only when
 * node or the SDK ({@code npm ci} in {@code server/src/test/node}) is missing — except with {@code
 * CI=true}, where that is a failure.
 */
class McpNodeClientTest {
  private static final Path NODE_DIR = Path.of("src", "test", "node").toAbsolutePath();

  @TempDir static Path temp;

  @BeforeAll
  static void requireNodeAndTheSdk() {
    String missing = null;
    if (!Files.isDirectory(NODE_DIR.resolve("node_modules/@modelcontextprotocol/sdk"))) {
      missing = "the TypeScript MCP SDK is not installed: run 'npm ci' in " + NODE_DIR;
    }
    if (!nodeRuns()) {
      missing = "node is not on the PATH";
    }
    if (missing == null) {
      return;
    }
    if ("true".equals(System.getenv("CI"))) {
      fail("CI=true, but the Node MCP client cannot run: " + missing);
    }
    Assumptions.abort("skipping the Node MCP client: " + missing);
  }

  private static boolean nodeRuns() {
    try {
      Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(1, TimeUnit.MINUTES) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Test
  void typeScriptClientResearchesOverStdio() throws Exception {
    Path data = McpTestData.copyOfSampleVault(temp.resolve("stdio"));
    var args = new ArrayList<>(List.of("stdio"));
    args.addAll(McpTestData.brainMcpCommand(data));
    assertThat(runNode(args)).contains("connected over stdio to brain", "all checks passed");
    assertThat(McpTestData.entries(data)).containsExactly("index");
  }

  @Test
  void typeScriptClientResearchesOverHttp() throws Exception {
    Path data = McpTestData.copyOfSampleVault(temp.resolve("http"));
    try (var server = BrainServer.start(SampleVaultData.onAnyPort(data))) {
      String url = "http://127.0.0.1:" + server.port() + "/mcp";
      assertThat(runNode(List.of("http", url)))
          .contains("connected over http to brain", "all checks passed");
    }
  }

  /** Runs the script with {@code args}, prints its output into the test log, returns it. */
  private static String runNode(List<String> args) throws Exception {
    var cmd = new ArrayList<>(List.of("node", "mcp-client.mjs"));
    cmd.addAll(args);
    var builder = new ProcessBuilder(cmd).directory(NODE_DIR.toFile()).redirectErrorStream(true);
    builder.environment().putAll(McpTestData.childEnvironment());
    Process process = builder.start();
    String output;
    try {
      output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(5, TimeUnit.MINUTES)) {
        fail("the Node MCP client did not finish:\n" + output);
      }
    } finally {
      process.destroyForcibly();
    }
    System.out.println("--- node mcp-client.mjs " + args.get(0) + " ---\n" + output);
    assertThat(process.exitValue()).as("node exit code; output:%n%s", output).isZero();
    return output;
  }
}
