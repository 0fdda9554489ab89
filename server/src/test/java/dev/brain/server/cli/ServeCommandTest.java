package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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

  /** What a {@code brain serve --port 0 --exit-when-idle} printed and advertised while it ran. */
  private record Served(String out, String err, JsonNode advertisement, int loginStatus) {}

  /**
   * Runs {@code brain serve} on a small index until it has printed its URL, reads {@code
   * server.json}, opens the advertised login link, and lets the server exit when idle (3 s).
   */
  private Served serve(String... extra) throws Exception {
    var vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(vault.resolve("a.md"), "# A\n\nkettle\n");
    Path data = tmp.resolve("data");
    assertThat(run(new StringWriter(), "--data", data.toString(), "index", vault.toString()))
        .isZero();
    Files.writeString(
        data.resolve("brain.yaml"), "server:\n  idle-exit: 3s\n", StandardOpenOption.APPEND);
    var out = new StringWriter();
    var err = new StringWriter();
    var args = new ArrayList<>(List.of("--data", data.toString(), "serve", "--port", "0"));
    args.add("--exit-when-idle");
    args.addAll(List.of(extra));
    var code = new CompletableFuture<Integer>();
    Thread.ofPlatform()
        .daemon()
        .start(
            () ->
                code.complete(
                    BrainCommand.run(
                        new PrintWriter(out, true),
                        new PrintWriter(err, true),
                        args.toArray(String[]::new))));
    for (int i = 0; i < 600 && !out.toString().contains("press Ctrl-C"); i++) {
      Thread.sleep(100);
    }
    assertThat(out.toString()).as(err.toString()).contains("serving at");
    JsonNode ad = new ObjectMapper().readTree(data.resolve("server.json").toFile());
    var login =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(ad.path("login_url").asText()))
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.discarding());
    assertThat(code.get(60, TimeUnit.SECONDS)).isZero();
    return new Served(out.toString(), err.toString(), ad, login.statusCode());
  }

  @Test
  void serveAdvertisesTheLoginLinkAndPrintsItForTheChatOnStderr() throws Exception {
    Served served = serve();
    String link = served.advertisement().path("login_url").asText();
    assertThat(link)
        .startsWith(served.advertisement().path("url").asText() + "?login=")
        .doesNotContain(served.advertisement().path("token").asText());
    assertThat(served.loginStatus()).isEqualTo(303);
    assertThat(served.err()).contains("brain: open the Chat at " + link);
    assertThat(served.out()).doesNotContain("?login=");
  }

  @Test
  void aServerStartedInTheBackgroundPrintsNoLoginLinkIntoItsLog() throws Exception {
    Served served = serve("--background");
    assertThat(served.advertisement().path("login_url").asText()).contains("?login=");
    assertThat(served.err() + served.out()).doesNotContain("?login=");
  }

  @Test
  void anOutOfRangePortIsAUsageError() {
    var err = new StringWriter();
    assertThat(run(err, "--data", tmp.toString(), "serve", "--port", "70000")).isEqualTo(2);
  }
}
