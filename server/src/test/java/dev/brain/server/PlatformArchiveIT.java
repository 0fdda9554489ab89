package dev.brain.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive of this machine's platform (profile {@code platforms}, run by {@code
 * bench/platform-archives/run}): unpacked, its jar carries this platform's native code and the
 * default model only, and its {@code bin/brain} prints its version, indexes a folder and searches
 * it with the embedding model, which needs ONNX Runtime's and the tokenizers' native libraries.
 */
class PlatformArchiveIT {

  @TempDir static Path tmp;

  /**
   * Per platform, the names its native code sits under: ONNX Runtime's folder, DJL's tokenizers'
   * folder, then JNA's, JLine's and Netty's.
   */
  private static final Map<String, List<String>> NATIVE_DIRECTORIES =
      Map.of(
          "linux-x64",
          List.of("linux-x64/", "linux-x86_64/", "linux-x86-64/", "Linux/x86_64/", "_x86_64.so"),
          "linux-aarch64",
          List.of("linux-aarch64/", "linux-aarch64/", "Linux/arm64/"),
          "macos-aarch64",
          List.of("osx-aarch64/", "osx-aarch64/", "darwin-aarch64/", "Mac/arm64/"));

  private static String platform;
  private static Path home;

  record Run(int code, String out, String err) {}

  @BeforeAll
  static void unpack() throws Exception {
    platform = hostPlatform();
    assumeTrue(platform != null, "no release archive for " + System.getProperty("os.arch"));
    Path archive =
        Path.of(System.getProperty("brain.platform.archives"))
            .resolve("brain-" + System.getProperty("brain.version") + "-" + platform + ".tar.gz");
    assertThat(archive).exists();
    Path install = Files.createDirectories(tmp.resolve("opt"));
    assertThat(run(install, List.of("tar", "xzf", archive.toString())).code()).isZero();
    home = install.resolve("brain-" + System.getProperty("brain.version"));
  }

  @Test
  void theJarCarriesThisPlatformsNativeCodeAndTheDefaultModelOnly() throws IOException {
    List<String> natives = new ArrayList<>();
    List<String> models = new ArrayList<>();
    try (var jar = new ZipFile(home.resolve("lib/brain.jar").toFile())) {
      jar.stream()
          .map(ZipEntry::getName)
          .forEach(
              name -> {
                if (name.matches(".*\\.(so|dylib|jnilib|dll)")) {
                  natives.add(name);
                }
                if (name.endsWith(".onnx")) {
                  models.add(name);
                }
              });
    }
    assertThat(models).containsExactly("bge-small-en-v1.5-q.onnx");
    List<String> markers = NATIVE_DIRECTORIES.get(platform);
    assertThat(natives)
        .anyMatch(name -> name.startsWith("ai/onnxruntime/native/" + markers.getFirst()))
        .anyMatch(name -> name.startsWith("native/lib/" + markers.get(1)))
        .allMatch(name -> markers.stream().anyMatch(name::contains), platform + " native code");
  }

  @Test
  void itsLauncherPrintsTheVersionAndSearchesWithTheEmbeddingModel() throws Exception {
    var version = brain("--version");
    assertThat(version.code()).as(version.err()).isZero();
    assertThat(version.out()).startsWith("brain " + System.getProperty("brain.version") + " ");

    Path vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(vault.resolve("kettle.md"), "# Kettle\n\nThe gooseneck kettle pours.");
    String data = tmp.resolve("data").toString();
    var index = brain("--data", data, "index", vault.toString(), "--no-progress");
    assertThat(index.code()).as(index.err()).isZero();
    var search = brain("--data", data, "search", "--local", "--lanes", "vector", "pouring water");
    assertThat(search.code()).as(search.err()).isZero();
    assertThat(search.out()).contains("kettle.md");
  }

  /** The platform name of the archives for this JVM's OS and architecture; null if none. */
  private static String hostPlatform() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch");
    boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
    boolean arm = arch.equals("aarch64") || arch.equals("arm64");
    if (os.contains("linux")) {
      return x64 ? "linux-x64" : arm ? "linux-aarch64" : null;
    }
    return os.contains("mac") && arm ? "macos-aarch64" : null;
  }

  private static Run brain(String... args) throws Exception {
    var command = new ArrayList<String>();
    command.add(home.resolve("bin/brain").toString());
    command.addAll(List.of(args));
    return run(Files.createDirectories(tmp.resolve("elsewhere")), command);
  }

  private static Run run(Path dir, List<String> command) throws Exception {
    var pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().remove("BRAIN_HOME");
    pb.environment().put("BRAIN_SERVER_AUTO_START", "false");
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
