package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.server.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One server per data directory ({@link ServerLock}): a second {@code brain serve} refuses and
 * names the first, a {@code brain serve} takes the place of a server a command started in the
 * background (a real child process), and {@code brain status} says which server runs. Every server
 * here exits by itself when idle (3 s) or is stopped by the test; every wait is bounded.
 */
class OneServerTest {
  @TempDir Path tmp;

  private Path data;

  record Run(int code, String out, String err) {}

  /** A {@code brain} command running in a thread of this process. */
  record Running(StringWriter out, StringWriter err, CompletableFuture<Integer> code) {}

  @BeforeEach
  void index() throws Exception {
    var vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(vault.resolve("a.md"), "# A\n\nkettle\n");
    data = tmp.resolve("data");
    assertThat(brain("index", vault.toString(), "--no-progress").code()).isZero();
    Files.writeString(
        data.resolve("brain.yaml"), "server:\n  idle-exit: 3s\n", StandardOpenOption.APPEND);
  }

  private Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    var all = new ArrayList<>(List.of("--data", data.toString()));
    all.addAll(List.of(args));
    int code =
        BrainCommand.run(
            new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
    return new Run(code, out.toString(), err.toString());
  }

  /** {@code brain serve --port 0 --exit-when-idle} in a thread, once it says it serves. */
  private Running serve() throws Exception {
    var out = new StringWriter();
    var err = new StringWriter();
    var code = new CompletableFuture<Integer>();
    Thread.ofPlatform()
        .daemon()
        .start(
            () ->
                code.complete(
                    BrainCommand.run(
                        new PrintWriter(out, true),
                        new PrintWriter(err, true),
                        "--data",
                        data.toString(),
                        "serve",
                        "--port",
                        "0",
                        "--exit-when-idle")));
    for (int i = 0; i < 600 && !out.toString().contains("press Ctrl-C") && !code.isDone(); i++) {
      Thread.sleep(100);
    }
    assertThat(out.toString()).as(err.toString()).contains("serving at");
    return new Running(out, err, code);
  }

  @Test
  @Timeout(180)
  void aSecondServeOnTheSameDataDirectoryRefusesInOneLineNamingTheFirst() throws Exception {
    Running first = serve();
    JsonNode ad = PrettyJson.MAPPER.readTree(data.resolve("server.json").toFile());
    String url = ad.path("url").asText();
    long pid = ProcessHandle.current().pid();
    assertThat(ad.path("background").asBoolean(true)).isFalse();

    Run second = brain("serve", "--port", "0");
    assertThat(second.code()).isEqualTo(1);
    assertThat(second.out()).doesNotContain("serving at");
    assertThat(second.err().strip().lines()).hasSize(1);
    assertThat(second.err())
        .startsWith("brain: a server already serves this data directory: " + url)
        .contains("pid " + pid, "brain serve", "since ", "Ctrl-C", "kill " + pid)
        .doesNotContain("Exception");

    // A background start finds the lock taken too and starts nothing.
    Run background = brain("serve", "--port", "0", "--background");
    assertThat(background.code()).isEqualTo(1);
    assertThat(background.out()).doesNotContain("serving at");

    // status, answered by the running server and read here, names it and how to stop it.
    for (Run status : List.of(brain("status"), brain("status", "--local"))) {
      assertThat(status.code()).as(status.err()).isZero();
      assertThat(status.out())
          .contains(
              "server: " + url + " (pid " + pid + ", brain serve, since ",
              "stop it with Ctrl-C in its terminal or `kill " + pid + "`")
          // The server's resident memory, read from /proc on Linux (where these tests run).
          .containsPattern("\\); resident memory \\d+ MiB \\(peak \\d+ MiB\\); stop it with");
    }
    JsonNode json = PrettyJson.MAPPER.readTree(brain("status", "--json", "--local").out());
    assertThat(json.at("/server/resident_bytes").asLong()).isGreaterThan(10L << 20);
    assertThat(json.at("/server/peak_resident_bytes").asLong())
        .isGreaterThanOrEqualTo(json.at("/server/resident_bytes").asLong());
    assertThat(json.at("/server/url").asText()).isEqualTo(url);
    assertThat(json.at("/server/pid").asLong()).isEqualTo(pid);
    assertThat(json.at("/server/background").asBoolean(true)).isFalse();
    assertThat(json.at("/server/since").asText()).isNotEmpty();

    assertThat(first.code().get(60, TimeUnit.SECONDS)).isZero();
    assertThat(brain("status", "--local").out()).contains("server: none on this data directory");
    assertThat(PrettyJson.MAPPER.readTree(brain("status", "--json", "--local").out()).has("server"))
        .isTrue();
  }

  @Test
  @Timeout(300)
  void serveTakesThePlaceOfAServerStartedInTheBackground() throws Exception {
    Process background = startInTheBackground();
    try {
      awaitAdvertisedBy(background);
      assertThat(brain("status", "--local").out())
          .contains(
              "(pid " + background.pid() + ", started in the background by a command",
              "stop it with `kill " + background.pid() + "`");

      Running serve = serve();
      assertThat(serve.err().toString())
          .contains(
              "brain: stopped the background server (pid "
                  + background.pid()
                  + ") on this data directory; serving here instead");
      assertThat(background.waitFor(30, TimeUnit.SECONDS)).isTrue();
      JsonNode ad = PrettyJson.MAPPER.readTree(data.resolve("server.json").toFile());
      assertThat(ad.path("pid").asLong()).isEqualTo(ProcessHandle.current().pid());
      assertThat(ad.path("background").asBoolean(true)).isFalse();
      assertThat(ServerStatus.of(data).map(ServerStatus::pid))
          .contains(ProcessHandle.current().pid());
      assertThat(serve.code().get(60, TimeUnit.SECONDS)).isZero();
    } catch (Exception | AssertionError e) {
      throw new AssertionError(
          "the background server's log:\n" + Files.readString(tmp.resolve("background.log")), e);
    } finally {
      background.destroyForcibly();
      background.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** What a command starts: {@code brain serve --background} in a process of its own. */
  private Process startInTheBackground() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    var builder =
        new ProcessBuilder(
            java.toString(),
            "--enable-native-access=ALL-UNNAMED",
            "--add-modules",
            "jdk.incubator.vector",
            "-Dai.djl.offline=true",
            Main.class.getName(),
            "--data",
            data.toString(),
            "serve",
            "--port",
            "0",
            "--background");
    builder.environment().put("DJL_OFFLINE", "true");
    // Not -cp: ONNX Runtime crashes (SIGSEGV) in a process whose command line passes ~4 KB.
    builder.environment().put("CLASSPATH", System.getProperty("java.class.path"));
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    builder.redirectErrorStream(true);
    builder.redirectOutput(tmp.resolve("background.log").toFile());
    return builder.start();
  }

  private void awaitAdvertisedBy(Process process) throws Exception {
    for (int i = 0; i < 1200 && process.isAlive(); i++) {
      if (ServerLock.advertisementOf(data, process.pid()).isPresent()) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the background server did not advertise itself");
  }
}
