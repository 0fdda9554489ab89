package dev.brain.server.mcp;

import dev.brain.server.http.SampleVaultData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Data directories for MCP tests: a private copy of the sample-vault index in a temporary folder,
 * so a test can check that MCP wrote nothing there (no traces, no index change).
 */
final class McpTestData {
  private McpTestData() {}

  /** A fresh data directory under {@code parent} holding a copy of the sample-vault index. */
  static Path copyOfSampleVault(Path parent) {
    Path source = SampleVaultData.dataDir().resolve("index");
    Path data = parent.resolve("data");
    Path target = data.resolve("index");
    try (Stream<Path> files = Files.list(source)) {
      Files.createDirectories(target);
      for (Path f : files.toList()) {
        if (Files.isRegularFile(f) && !f.getFileName().toString().equals("write.lock")) {
          Files.copy(f, target.resolve(f.getFileName()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return data;
  }

  /**
   * The command that runs {@code brain --data DATA mcp} in a child JVM; run it with {@link
   * #childEnvironment()}, which carries the test classpath. (Not {@code -cp}: ONNX Runtime 1.29
   * crashes in a process whose command line is longer than about 4 KB, as bin/brain notes.)
   */
  static List<String> brainMcpCommand(Path data) {
    var cmd = new ArrayList<String>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--enable-native-access=ALL-UNNAMED");
    cmd.add("--add-modules");
    cmd.add("jdk.incubator.vector");
    cmd.add("-Dai.djl.offline=true");
    cmd.add("-Xshare:off");
    cmd.add("dev.brain.server.Main");
    cmd.add("--data");
    cmd.add(data.toString());
    cmd.add("mcp");
    return cmd;
  }

  /** The environment of the child JVM: the test classpath as CLASSPATH, DJL offline. */
  static Map<String, String> childEnvironment() {
    return Map.of("CLASSPATH", System.getProperty("java.class.path"), "DJL_OFFLINE", "true");
  }

  /** Names of the entries of {@code data} (the index folder and anything MCP may have written). */
  static List<String> entries(Path data) {
    try (Stream<Path> s = Files.list(data)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
