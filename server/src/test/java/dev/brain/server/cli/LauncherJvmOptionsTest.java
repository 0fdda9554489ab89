package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM options {@code bin/brain} starts a server with: the server a command starts in the
 * background runs on the quick JVM of the short commands it answers (C1 only, the serial collector,
 * no vector module), a {@code brain serve} run by hand keeps C2 and the vector module. The launcher
 * runs from an install whose JDK is a script that writes down its arguments.
 */
class LauncherJvmOptionsTest {

  @TempDir static Path tmp;

  private static Path launcher;
  private static Path jdk;

  @BeforeAll
  static void install() throws IOException {
    Path install = tmp.resolve("install");
    Files.createDirectories(install.resolve("bin"));
    Files.createDirectories(install.resolve("lib"));
    Path checkout = Path.of("..").toAbsolutePath().normalize();
    launcher = install.resolve("bin/brain");
    Files.copy(checkout.resolve("bin/brain"), launcher);
    Files.copy(checkout.resolve("bin/jdk.sh"), install.resolve("bin/jdk.sh"));
    Files.writeString(install.resolve("lib/brain.jar"), "not a jar");
    assertThat(launcher.toFile().setExecutable(true)).isTrue();

    jdk = tmp.resolve("jdk");
    Files.createDirectories(jdk.resolve("bin"));
    Files.writeString(
        jdk.resolve("release"), "JAVA_VERSION=\"25\"\nJAVA_RUNTIME_VERSION=\"25+fake\"\n");
    Files.writeString(
        jdk.resolve("bin/java"), "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$ARGS_OUT\"\n");
    Files.writeString(jdk.resolve("bin/javac"), "#!/bin/sh\nexit 0\n");
    assertThat(jdk.resolve("bin/java").toFile().setExecutable(true)).isTrue();
    assertThat(jdk.resolve("bin/javac").toFile().setExecutable(true)).isTrue();
  }

  /** The JVM's arguments when the launcher runs {@code brain args...}. */
  private static List<String> jvmArguments(String... args) throws Exception {
    Path out = Files.createTempFile(tmp, "args", ".txt");
    var command = new java.util.ArrayList<String>();
    command.add(launcher.toString());
    command.addAll(List.of(args));
    var builder = new ProcessBuilder(command).redirectErrorStream(true);
    var env = builder.environment();
    env.put("JAVA_HOME", jdk.toString());
    env.put("ARGS_OUT", out.toString());
    env.put("PATH", "/usr/bin:/bin");
    env.remove("BRAIN_STARTUP_CACHE");
    env.remove("BRAIN_JAVA_OPTS");
    var process = builder.start();
    process.getOutputStream().close();
    String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(printed).isTrue();
    assertThat(process.exitValue()).as(printed).isZero();
    return Files.readAllLines(out);
  }

  @Test
  void theBackgroundServerRunsOnTheQuickJvmOfTheCommandsItAnswers() throws Exception {
    var args =
        jvmArguments(
            "--data",
            tmp.resolve("data").toString(),
            "serve",
            "--port",
            "0",
            "--exit-when-idle",
            "--background");
    assertThat(args).contains("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    assertThat(args).doesNotContain("jdk.incubator.vector");
    assertThat(args).endsWith("serve", "--port", "0", "--exit-when-idle", "--background");
  }

  @Test
  void aServerStartedByHandKeepsC2AndTheVectorModule() throws Exception {
    var args = jvmArguments("--data", tmp.resolve("data").toString(), "serve", "--port", "0");
    assertThat(args).contains("jdk.incubator.vector");
    assertThat(args).doesNotContain("-XX:TieredStopAtLevel=1");
  }
}
