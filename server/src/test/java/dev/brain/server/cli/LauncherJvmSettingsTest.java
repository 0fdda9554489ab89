package dev.brain.server.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/brain}'s settings for the one-shot commands (search, get, status, the version and
 * help): a JVM with C1 alone; for their memory the fixed glibc mmap threshold, set for their JVM,
 * taken back for a process such a command starts (the background server runs the same launcher) and
 * never over a threshold the user set; and the optimized model copy, for their JVM only. The
 * launcher runs against a JDK whose {@code java} prints the environment it was given.
 */
class LauncherJvmSettingsTest {

  @TempDir static Path tmp;
  private static Path launcher;
  private static Path jdk;

  @BeforeAll
  static void install() throws Exception {
    Path checkout = Path.of("..").toAbsolutePath().normalize();
    Path install = tmp.resolve("install");
    Files.createDirectories(install.resolve("bin"));
    Files.createDirectories(install.resolve("lib"));
    launcher = install.resolve("bin/brain");
    Files.copy(checkout.resolve("bin/brain"), launcher);
    Files.copy(checkout.resolve("bin/jdk.sh"), install.resolve("bin/jdk.sh"));
    Files.writeString(install.resolve("lib/brain.jar"), "not a jar");
    assertThat(launcher.toFile().setExecutable(true)).isTrue();

    jdk = tmp.resolve("jdk");
    Files.createDirectories(jdk.resolve("bin"));
    Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25.0.3\"\n");
    Path java = jdk.resolve("bin/java");
    Files.writeString(
        java,
        "#!/usr/bin/env bash\n"
            + "echo \"threshold=${MALLOC_MMAP_THRESHOLD_-unset} tuned=${BRAIN_MALLOC_TUNED-unset}\"\n"
            + "for a in \"$@\"; do case $a in -Dbrain.onnx.* | -XX:CompileThresholdScaling=* | -XX:TieredStopAtLevel=*) echo \"$a\" ;; esac; done\n");
    Path javac = Files.writeString(jdk.resolve("bin/javac"), "#!/usr/bin/env bash\n");
    assertThat(java.toFile().setExecutable(true)).isTrue();
    assertThat(javac.toFile().setExecutable(true)).isTrue();
  }

  /** The launcher's settings for a one-shot command's JVM, with the malloc threshold it sets. */
  private static final String QUICK_FLAGS =
      "-XX:TieredStopAtLevel=1\n-XX:CompileThresholdScaling=4\n-Dbrain.onnx.optimized-copy=true";

  private static final String QUICK = "threshold=131072 tuned=1\n" + QUICK_FLAGS;

  @Test
  void aOneShotCommandsJvmGetsTheFixedThresholdAndTheOptimizedModelCopy() throws Exception {
    assertThat(brain(Map.of(), "search", "--local", "kettle")).isEqualTo(QUICK);
    assertThat(brain(Map.of(), "get", "--local", "note:a.md")).isEqualTo(QUICK);
  }

  @Test
  void theVersionAndHelpRunInTheOneShotJvmAndACommandThatIndexesDoesNot() throws Exception {
    assertThat(brain(Map.of(), "--version")).isEqualTo(QUICK);
    assertThat(brain(Map.of(), "-h")).isEqualTo(QUICK);
    assertThat(brain(Map.of(), "help", "search")).isEqualTo(QUICK);
    assertThat(brain(Map.of(), "index", "notes")).isEqualTo("threshold=unset tuned=unset");
  }

  @Test
  void aServerStartedByASearchGetsTheEnvironmentBack() throws Exception {
    // What a background server inherits from the search JVM that started it.
    var inherited = Map.of("MALLOC_MMAP_THRESHOLD_", "131072", "BRAIN_MALLOC_TUNED", "1");
    assertThat(brain(inherited, "serve", "--background"))
        .isEqualTo("threshold=unset tuned=unset\n-XX:CompileThresholdScaling=4");
    assertThat(brain(inherited, "index", "notes")).isEqualTo("threshold=unset tuned=unset");
  }

  @Test
  void aThresholdTheUserSetIsKept() throws Exception {
    var own = Map.of("MALLOC_MMAP_THRESHOLD_", "65536");
    assertThat(brain(own, "search", "--local", "kettle"))
        .isEqualTo("threshold=65536 tuned=unset\n" + QUICK_FLAGS);
    assertThat(brain(own, "serve"))
        .isEqualTo("threshold=65536 tuned=unset\n-XX:CompileThresholdScaling=4");
  }

  private static String brain(Map<String, String> env, String... args) throws Exception {
    var command =
        new ArrayList<>(List.of(launcher.toString(), "--data", tmp.resolve("data").toString()));
    command.addAll(List.of(args));
    var pb = new ProcessBuilder(command).directory(tmp.toFile());
    pb.environment().remove("MALLOC_MMAP_THRESHOLD_");
    pb.environment().remove("BRAIN_MALLOC_TUNED");
    pb.environment().remove("BRAIN_STARTUP_CACHE");
    pb.environment().put("JAVA_HOME", jdk.toString());
    pb.environment().putAll(env);
    Path out = Files.createTempFile(tmp, "out", ".txt");
    Path err = Files.createTempFile(tmp, "err", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    if (!p.waitFor(1, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + command);
    }
    assertThat(p.exitValue()).as(Files.readString(err, UTF_8)).isZero();
    return Files.readString(out, UTF_8).strip();
  }
}
