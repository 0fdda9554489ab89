package dev.brain.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive as a user gets it: unpacked into a temporary folder, {@code bin/brain}
 * symlinked onto a PATH folder and run from elsewhere. Runs after {@code package} (failsafe).
 */
class ReleaseArchiveIT {

  @TempDir static Path tmp;

  private static final ObjectMapper JSON = new ObjectMapper();

  private static Path onPath;
  private static Path home;

  record Run(int code, String out, String err) {}

  @BeforeAll
  static void unpackAndLinkOntoPath() throws Exception {
    Path archive = Path.of(System.getProperty("brain.archive"));
    assertThat(archive).exists();
    Path install = Files.createDirectories(tmp.resolve("opt"));
    assertThat(run(install, List.of("tar", "xzf", archive.toString())).code()).isZero();
    home = install.resolve("brain-" + System.getProperty("brain.version"));
    assertThat(home.resolve("lib/brain.jar")).exists();
    assertThat(home.resolve("README.md")).exists();
    // The README's links: its docs pages and pictures, and the security policy.
    assertThat(home.resolve("docs/configuration.md")).exists();
    assertThat(home.resolve("docs/chat.png")).exists();
    assertThat(home.resolve("SECURITY.md")).exists();
    assertThat(home.resolve("licenses/LICENSE-Apache-2.0.txt")).exists();
    // Two hops, the second relative, as package managers and ~/bin links do.
    Path links = Files.createDirectories(tmp.resolve("links"));
    Files.createSymbolicLink(links.resolve("brain-current"), home.resolve("bin/brain"));
    onPath = Files.createDirectories(tmp.resolve("bin")).resolve("brain");
    Files.createSymbolicLink(onPath, Path.of("..", "links", "brain-current"));
  }

  @Test
  void symlinkedLauncherPrintsThePomVersionAndTheCommit() throws Exception {
    var run = brain("--version");
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out().strip())
        .startsWith("brain " + System.getProperty("brain.version") + " (commit ")
        .doesNotContain("dev (commit");
  }

  @Test
  void symlinkedLauncherRunsACommandFromAnotherFolderWithoutBuilding() throws Exception {
    var run = brain("--data", tmp.resolve("data").toString(), "trace", "list");
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.err()).doesNotContain("building");
  }

  @Test
  void theFirstSearchLeavesAServerForTheNextOnesThatExitsWhenIdle() throws Exception {
    Path vault = Files.createDirectories(tmp.resolve("auto-vault"));
    Files.writeString(vault.resolve("kettle.md"), "# Kettle\n\nThe gooseneck kettle pours.");
    Path data = tmp.resolve("auto-data");
    assertThat(brain("--data", data.toString(), "index", vault.toString()).code()).isZero();
    Files.writeString(
        data.resolve("brain.yaml"), "server:\n  idle-exit: 3s\n", StandardOpenOption.APPEND);
    var env = Map.of("BRAIN_SERVER_AUTO_START", "true");
    var first = brain(env, "--data", data.toString(), "search", "gooseneck");
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(first.out()).contains("kettle.md");
    assertThat(first.err()).contains("started a server in the background");
    Path ad = data.resolve("server.json");
    for (int i = 0; i < 240 && !Files.exists(ad); i++) {
      Thread.sleep(500);
    }
    assertThat(ad).as(Files.readString(data.resolve("server.log"))).exists();
    long pid = JSON.readTree(ad.toFile()).path("pid").asLong();
    var second = brain(env, "--data", data.toString(), "search", "gooseneck");
    assertThat(second.code()).as(second.err()).isZero();
    // The same rows (timings aside) ...
    assertThat(second.out().replaceAll("[0-9.]+ ms", ""))
        .isEqualTo(first.out().replaceAll("[0-9.]+ ms", ""));
    assertThat(second.err()).isEmpty(); // ... through the server: no JVM, no notice
    // Idle for 3 s, the server exits and takes its advertisement with it.
    var process = ProcessHandle.of(pid);
    for (int i = 0; i < 120 && process.map(ProcessHandle::isAlive).orElse(false); i++) {
      Thread.sleep(500);
    }
    try {
      assertThat(process.map(ProcessHandle::isAlive).orElse(false)).isFalse();
      assertThat(ad).doesNotExist();
    } finally {
      process.ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  @Test
  void theJvmsIncubatorNoticeNeverReachesAUser() throws Exception {
    Path vault = Files.createDirectories(tmp.resolve("quiet-vault"));
    Files.writeString(vault.resolve("kettle.md"), "# Kettle\n\nThe gooseneck kettle pours.");
    String data = tmp.resolve("quiet-data").toString();
    List<List<String>> commands =
        List.of(
            List.of("--version"),
            List.of("--help"),
            List.of("--data", data, "index", vault.toString()),
            List.of("--data", data, "config"),
            List.of("--data", data, "research", "--json", "gooseneck kettle"),
            List.of("--data", data, "trace", "list"));
    for (var args : commands) {
      var run = brain(args.toArray(String[]::new));
      assertThat(run.code()).as(args + ": " + run.err()).isZero();
      assertThat(run.err()).as(args.toString()).doesNotContain("incubator");
      assertThat(run.out()).as(args.toString()).doesNotContain("incubator");
    }
    // The filter keeps brain's own messages: an error still says why.
    var missing = brain("--data", tmp.resolve("no-such-data").toString(), "research", "kettle");
    assertThat(missing.code()).isEqualTo(1);
    assertThat(missing.err()).contains("no index at").doesNotContain("incubator");
  }

  @Test
  void helpAndTraceListLoadNeitherOnnxRuntimeNorTheIndex() throws Exception {
    for (var args : List.of(List.of("--help"), List.of("trace", "list"))) {
      Path classes = tmp.resolve("classes-" + String.join("-", args) + ".log");
      var command = new ArrayList<>(List.of("--data", tmp.resolve("data").toString()));
      command.addAll(args);
      var run =
          brain(
              Map.of("BRAIN_JAVA_OPTS", "-Xlog:class+load=info:file=" + classes),
              command.toArray(String[]::new));
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(Files.readString(classes))
          .contains("dev.brain.server.cli.BrainCommand")
          .doesNotContain("ai.onnxruntime.")
          .doesNotContain("ai.djl.")
          .doesNotContain("org.apache.lucene.index.DirectoryReader");
    }
  }

  @Test
  void startupCacheIsBuiltBesideTheJarAndKeepsJsonOutputClean() throws Exception {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(vault.resolve("kettle.md"), "# Kettle\n\nThe gooseneck kettle pours.");
    String data = tmp.resolve("cache-data").toString();
    var index = brain(Map.of(), "--data", data, "index", vault.toString());
    assertThat(index.code()).as(index.err()).isZero();
    Path lib = home.resolve("lib");

    var training = brain(Map.of(), "--data", data, "search", "--json", "gooseneck");
    assertThat(training.code()).as(training.err()).isZero();
    assertThat(JSON.readTree(training.out()).path("rows").get(0).path("source_key").asText())
        .endsWith("kettle.md");
    Path cache = awaitCache(lib);

    var cached = brain(Map.of(), "--data", data, "search", "--json", "gooseneck");
    assertThat(cached.code()).as(cached.err()).isZero();
    assertThat(JSON.readTree(cached.out()).path("rows").get(0).path("source_key").asText())
        .endsWith("kettle.md");
    assertThat(cache).exists();
  }

  /**
   * From the release jar (which carries no ONNX Runtime manifest) indexing and a search leave
   * brain's one private folder in the temp directory and nothing else: no {@code onnxruntime-java*}
   * folder, no library copy of ONNX Runtime's own.
   */
  @Test
  void embeddingFromTheReleaseJarLeavesNothingNewInTheTempDirectory() throws Exception {
    Path vault = Files.createDirectories(tmp.resolve("temp-vault"));
    Files.writeString(vault.resolve("kettle.md"), "# Kettle\n\nThe gooseneck kettle pours.");
    Path own = Files.createDirectories(tmp.resolve("own-tmp"));
    var env = Map.of("BRAIN_JAVA_OPTS", "-Djava.io.tmpdir=" + own);
    String data = tmp.resolve("temp-data").toString();
    var index = brain(env, "--data", data, "index", vault.toString());
    assertThat(index.code()).as(index.err()).isZero();
    var search = brain(env, "--data", data, "search", "--local", "gooseneck");
    assertThat(search.code()).as(search.err()).isZero();

    try (var entries = Files.list(own)) {
      assertThat(entries.map(p -> p.getFileName().toString()))
          .containsExactly("brain-models-" + System.getProperty("user.name"));
    }
    try (var entries = Files.list(own.resolve("brain-models-" + System.getProperty("user.name")))) {
      assertThat(entries.map(p -> p.getFileName().toString()))
          .anyMatch(
              name -> name.startsWith("onnxruntime-linux-") || name.startsWith("onnxruntime-osx-"));
    }
  }

  @Test
  void aRunningServerAnswersWithoutAJvmAndAKilledOneFallsBackToTheJvm() throws Exception {
    Path vault = Files.createDirectories(tmp.resolve("served-vault"));
    Files.writeString(vault.resolve("kettle.md"), "# Kettle\n\nThe gooseneck kettle pours.");
    Path data = tmp.resolve("served-data");
    var index = brain("--data", data.toString(), "index", vault.toString());
    assertThat(index.code()).as(index.err()).isZero();
    String[] search = {"--data", data.toString(), "search", "--json", "gooseneck kettle"};
    String[] local = {"--data", data.toString(), "search", "--local", "--json", "gooseneck kettle"};
    var inProcess = brain(local);
    assertThat(inProcess.code()).as(inProcess.err()).isZero();

    var command = new ArrayList<>(List.of(onPath.toString(), "--data", data.toString()));
    command.addAll(List.of("serve", "--port", "0"));
    var pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.redirectOutput(tmp.resolve("serve.log").toFile());
    Process server = pb.start(); // bin/brain execs the JVM: this is the server's process
    try {
      Path ad = data.resolve("server.json");
      for (int i = 0; i < 240 && !Files.exists(ad); i++) {
        Thread.sleep(500);
      }
      assertThat(ad).as(Files.readString(tmp.resolve("serve.log"))).exists();
      assertThat(Files.readString(ad)).contains("\"pid\":" + server.pid());
      var served = brain(search);
      assertThat(served.code()).as(served.err()).isZero();
      assertSameOutput(served.out(), inProcess.out());
      assertThat(served.err()).isEmpty(); // no JVM started: not even its incubator notice
    } finally {
      server.destroyForcibly(); // SIGKILL: no shutdown hook, the advertisement stays behind
      server.waitFor(1, TimeUnit.MINUTES);
    }
    assertThat(data.resolve("server.json")).exists();
    var fallback = brain(search);
    assertThat(fallback.code()).as(fallback.err()).isZero();
    assertSameOutput(fallback.out(), inProcess.out());
  }

  /** {@code node} without its {@code timings_ms} and {@code took_ms}, which differ per run. */
  private static JsonNode withoutTimings(JsonNode node) {
    if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
      object.remove(List.of("timings_ms", "took_ms"));
    }
    node.forEach(ReleaseArchiveIT::withoutTimings);
    return node;
  }

  /**
   * Asserts two JSON outputs equal but for timings, with floating-point numbers equal within 1e-5:
   * the server's JVM computes vector similarities with the SIMD vector module and the short-command
   * JVM without it, so the last bits of a float differ.
   */
  private static void assertSameOutput(String actual, String expected) throws Exception {
    JsonNode a = withoutTimings(JSON.readTree(actual));
    JsonNode e = withoutTimings(JSON.readTree(expected));
    assertThat(a.equals((x, y) -> sameValue(x, y) ? 0 : 1, e)).as(actual).isTrue();
  }

  private static boolean sameValue(JsonNode x, JsonNode y) {
    if (x.isFloatingPointNumber() && y.isFloatingPointNumber()) {
      return Math.abs(x.doubleValue() - y.doubleValue()) <= 1e-5;
    }
    return x.equals(y);
  }

  /** The cache is assembled in the background after the training run; wait for it. */
  private static Path awaitCache(Path lib) throws Exception {
    for (int i = 0; i < 600; i++) {
      try (var files = Files.list(lib)) {
        var cache =
            files
                .filter(f -> f.getFileName().toString().matches("brain-.*\\.(aot|jsa)"))
                .findFirst();
        if (cache.isPresent()) {
          return cache.get();
        }
      }
      Thread.sleep(500);
    }
    throw new AssertionError("no start-up cache appeared in " + lib);
  }

  private static Run brain(String... args) throws Exception {
    return brain(Map.of(), args);
  }

  private static Run brain(Map<String, String> env, String... args) throws Exception {
    var command = new ArrayList<String>();
    command.add(onPath.toString());
    command.addAll(List.of(args));
    Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
    return run(elsewhere, command, env);
  }

  static Run run(Path dir, List<String> command) throws IOException, InterruptedException {
    return run(dir, command, Map.of());
  }

  static Run run(Path dir, List<String> command, Map<String, String> env)
      throws IOException, InterruptedException {
    var pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().remove("BRAIN_HOME");
    pb.environment().remove("BRAIN_STARTUP_CACHE");
    pb.environment().putAll(env);
    Path out = Files.createTempFile(tmp, "out", ".txt");
    Path err = Files.createTempFile(tmp, "err", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + command);
    }
    return new Run(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
