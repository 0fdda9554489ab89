package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServeCommandTest {
  @TempDir Path tmp;

  private int run(StringWriter err, String... args) {
    return BrainCommand.run(
        new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), args);
  }

  @Test
  void bindingANonLoopbackHostWithoutAllowRemoteIsAUsageError() {
    var err = new StringWriter();
    int code = run(err, "--data", tmp.toString(), "serve", "--host", "0.0.0.0");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("not a loopback address", "--allow-remote");
  }

  @Test
  void servingWithoutAnIndexSaysHowToCreateOne() {
    var err = new StringWriter();
    int code = run(err, "--data", tmp.resolve("empty").toString(), "serve", "--port", "0");
    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).contains("brain index PATH");
  }

  @Test
  void aTakenPortEndsWithOneLineNamingThePortAndPortOption() throws Exception {
    var vault = java.nio.file.Files.createDirectories(tmp.resolve("vault"));
    java.nio.file.Files.writeString(vault.resolve("a.md"), "# A\n\nkettle\n");
    String data = tmp.resolve("data").toString();
    assertThat(run(new StringWriter(), "--data", data, "index", vault.toString())).isZero();
    try (var taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      var out = new StringWriter();
      var err = new StringWriter();
      int code =
          BrainCommand.run(
              new PrintWriter(out, true),
              new PrintWriter(err, true),
              "--data",
              data,
              "serve",
              "--port",
              String.valueOf(port));
      assertThat(code).isEqualTo(1);
      assertThat(err.toString().strip())
          .startsWith("brain: cannot listen on 127.0.0.1:" + port)
          .contains("--port 0")
          .doesNotContain("Exception")
          .doesNotContain("\tat ");
      assertThat(err.toString().strip().lines()).hasSize(1);
      assertThat(out.toString()).doesNotContain("serving at");
    }
  }

  @Test
  void anOutOfRangePortIsAUsageError() {
    var err = new StringWriter();
    assertThat(run(err, "--data", tmp.toString(), "serve", "--port", "70000")).isEqualTo(2);
  }
}
