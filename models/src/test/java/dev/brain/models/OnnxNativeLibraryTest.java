package dev.brain.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class OnnxNativeLibraryTest {

  @Test
  void extractsTheNativeLibrariesOnceIntoAVersionedDirectory() {
    Path dir = OnnxNativeLibrary.stableDirectory().orElseThrow();

    assertThat(dir.getFileName().toString())
        .startsWith("brain-onnxruntime-1.29.0-" + OnnxNativeLibrary.platform().orElseThrow());
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
}
