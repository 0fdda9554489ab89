package dev.brain.models;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OnnxNativeLibraryTest {

  @TempDir Path temp;

  @Test
  void extractsTheNativeLibrariesOnceIntoAVersionedDirectory() {
    Path dir = OnnxNativeLibrary.stableDirectory().orElseThrow();

    assertThat(dir.getParent().getFileName().toString())
        .isEqualTo("brain-models-" + System.getProperty("user.name"));
    assertThat(dir.getFileName().toString())
        .matches("onnxruntime-" + OnnxNativeLibrary.platform().orElseThrow() + "-[0-9a-f]{8}");
    assertThat(dir.resolve(System.mapLibraryName("onnxruntime"))).isRegularFile();
    assertThat(dir.resolve(System.mapLibraryName("onnxruntime4j_jni"))).isRegularFile();
    // A second call reuses the copy.
    assertThat(OnnxNativeLibrary.stableDirectory()).contains(dir);
  }

  @Test
  void pointsOnnxRuntimeAtTheStableCopyBeforeItLoads() throws Exception {
    Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15).close();

    String path = System.getProperty(OnnxNativeLibrary.PATH_PROPERTY);
    assertThat(path).isNotNull();
    try (Stream<Path> files = Files.list(Path.of(path))) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .contains(System.mapLibraryName("onnxruntime"))
          .noneMatch(name -> name.endsWith(".partial"));
    }
  }

  @Test
  void leavesNoTelemetryLogBehind() throws Exception {
    // The launcher and the build set ORT_DISABLE_TELEMETRY; without it ONNX Runtime writes
    // /tmp/mat-debug-<pid>.log and a usage database under ~/.cache/Microsoft/DeveloperTools.
    assertThat(System.getenv("ORT_DISABLE_TELEMETRY")).isEqualTo("1");
    Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15).close();

    Path log =
        Path.of(
            System.getProperty("java.io.tmpdir"),
            "mat-debug-" + ProcessHandle.current().pid() + ".log");
    // Process ids wrap (pid_max is often 32768), so a log left by an earlier process that had this
    // id, say a build from before telemetry was off, may already be there. Only a log this JVM
    // created or touched counts.
    if (Files.exists(log)) {
      Instant started = ProcessHandle.current().info().startInstant().orElseThrow();
      FileTime changed = (FileTime) Files.getAttribute(log, "unix:ctime");
      assertThat(changed.toInstant()).isBefore(started.minusSeconds(1));
    }
  }

  /**
   * Two JVMs loading the model at once into an empty temp directory of their own, both killed hard
   * once loaded, then a third that exits normally: the temp directory holds brain's one private
   * folder with one copy of the libraries and the model graph, and nothing else (before, each start
   * left an {@code onnxruntime-java*} folder, and each killed one a 28 MB library in it).
   */
  @Test
  void loadingTheModelLeavesNothingNewInTheTempDirectoryEvenWhenKilled() throws Exception {
    Path tmp = Files.createDirectories(temp.resolve("tmp"));
    Process first = start(tmp, "wait");
    Process second = start(tmp, "wait");
    try {
      awaitLoaded(first);
      awaitLoaded(second);
    } finally {
      first.destroyForcibly().waitFor();
      second.destroyForcibly().waitFor();
    }
    String models = "brain-models-" + System.getProperty("user.name");
    assertThat(names(tmp)).containsExactly(models);
    Path copy = onlyNativeCopy(tmp.resolve(models));
    assertThat(names(copy))
        .containsExactlyInAnyOrder(
            System.mapLibraryName("onnxruntime"), System.mapLibraryName("onnxruntime4j_jni"));
    Path library = copy.resolve(System.mapLibraryName("onnxruntime"));
    Object inode = Files.getAttribute(library, "unix:ino");

    Process third = start(tmp, "exit");
    awaitLoaded(third);
    assertThat(third.waitFor(2, TimeUnit.MINUTES)).isTrue();

    assertThat(names(tmp)).containsExactly(models);
    assertThat(onlyNativeCopy(tmp.resolve(models))).isEqualTo(copy);
    assertThat(Files.getAttribute(library, "unix:ino"))
        .as("reused, not copied again")
        .isEqualTo(inode);
    assertThat(names(tmp.resolve(models))).noneMatch(name -> name.endsWith(".partial"));
  }

  private static Process start(Path tmp, String mode) throws Exception {
    var command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--enable-native-access=ALL-UNNAMED",
            "-Dai.djl.offline=true",
            "-Djava.io.tmpdir=" + tmp,
            LoadEmbedder.class.getName(),
            mode);
    var builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
    // The classpath as CLASSPATH: ONNX Runtime crashes in a process with a very long command line.
    builder.environment().put("CLASSPATH", System.getProperty("java.class.path"));
    return builder.start();
  }

  private static void awaitLoaded(Process process) throws Exception {
    var out = new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8));
    assertThat(out.readLine()).isEqualTo("loaded");
  }

  private static Path onlyNativeCopy(Path models) throws Exception {
    try (Stream<Path> entries = Files.list(models)) {
      var copies =
          entries.filter(p -> p.getFileName().toString().startsWith("onnxruntime-")).toList();
      assertThat(copies).hasSize(1);
      return copies.getFirst();
    }
  }

  private static List<String> names(Path dir) throws Exception {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}
