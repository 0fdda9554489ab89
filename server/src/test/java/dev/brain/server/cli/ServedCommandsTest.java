package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.BrainConfig;
import dev.brain.server.http.BrainServer;
import dev.brain.server.http.CliProof;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/brain} answered by a running server without a JVM of its own: the launcher sends the
 * command with curl to {@code POST /api/cli}, which runs it in the server. The launcher runs from
 * an install whose {@code lib/brain.jar} is not a jar, so any fall back to the JVM shows as a
 * failure; the output must be the bytes the in-process command ({@code --local}) prints.
 */
class ServedCommandsTest {

  @TempDir static Path tmp;

  private static Path data;
  private static Path launcher;
  private static BrainServer server;
  private static ServerAdvertisement.Published advertisement;

  record Run(int code, String out, String err) {}

  @BeforeAll
  static void indexServeAndInstall() throws IOException {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(
        vault.resolve("kettle.md"),
        "# Gooseneck kettle\n\nThe gooseneck kettle pours slowly for a café \"pour-over\".");
    Files.writeString(
        vault.resolve("grinder.md"),
        "# Burr grinder\n\nA burr grinder sets the espresso grind size. See [[kettle]].");
    data = tmp.resolve("data");
    var index = inProcess("--data", data.toString(), "index", vault.toString());
    assertThat(index.code()).as(index.err()).isZero();
    var config = BrainConfig.defaults(data);
    server =
        BrainServer.start(config.withServer(config.server().withPort(0)), ServerCommands.INSTANCE);
    advertisement = ServerAdvertisement.publish(data, server);

    // An install whose JVM path cannot work: only the server can answer.
    Path install = tmp.resolve("install");
    Files.createDirectories(install.resolve("bin"));
    Files.createDirectories(install.resolve("lib"));
    Path checkout = Path.of("..").toAbsolutePath().normalize();
    launcher = install.resolve("bin/brain");
    Files.copy(checkout.resolve("bin/brain"), launcher);
    Files.copy(checkout.resolve("bin/jdk.sh"), install.resolve("bin/jdk.sh"));
    Files.writeString(install.resolve("lib/brain.jar"), "not a jar");
    assertThat(launcher.toFile().setExecutable(true)).isTrue();
  }

  @AfterAll
  static void stop() {
    if (advertisement != null) {
      advertisement.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void searchGetStatusAndResearchPrintWhatTheLocalCommandPrints() throws Exception {
    List<List<String>> commands =
        List.of(
            List.of("search", "gooseneck kettle"),
            List.of("search", "--json", "--limit", "1", "grind", "size"),
            List.of("get", "note:vault/grinder.md"),
            List.of("get", "--json", "note:vault/kettle.md"),
            List.of("get", "note:vault/missing.md"),
            List.of("status"),
            List.of("status", "--json"),
            List.of("research", "--no-trace", "what sets the espresso grind size?"),
            List.of("research", "--retrieval-only", "--json", "gooseneck kettle"));
    for (var command : commands) {
      var args = new ArrayList<>(List.of("--data", data.toString()));
      args.addAll(command);
      Run served = launcher(args);
      args.add(3, "--local");
      Run local = inProcess(args.toArray(String[]::new));
      assertThat(served.code()).as(command + ": " + served.err()).isEqualTo(local.code());
      assertThat(masked(served.out())).as(command.toString()).isEqualTo(masked(local.out()));
      assertThat(served.err().replaceAll("\\d+\\.\\d\\ds ", "N.NNs "))
          .as(command.toString())
          .isEqualTo(local.err().replaceAll("\\d+\\.\\d\\ds ", "N.NNs "));
    }
  }

  @Test
  void argumentsArriveExactlyWithSpacesQuotesBackslashesUnicodeAndNewlines() throws Exception {
    // printf in bash makes the bytes, so the JVM's own argument encoding plays no part.
    String printf = "caf\\303\\251 \\\"pour-over\\\" back\\\\slash\\nkettle ☕ 'single'";
    String query = "café \"pour-over\" back\\slash\nkettle ☕ 'single'";
    var served =
        run(
            List.of(
                "bash",
                "-c",
                "exec \"$0\" --data \"$1\" search --json \"$(printf \"$2\")\"",
                launcher.toString(),
                data.toString(),
                printf),
            Map.of());
    var local = inProcess("--data", data.toString(), "search", "--local", "--json", query);
    assertThat(served.code()).as(served.err()).isZero();
    assertThat(masked(served.out())).isEqualTo(masked(local.out())).contains("kettle.md");
    assertThat(served.out())
        .contains("\"query\" : \"café \\\"pour-over\\\" back\\\\slash\\nkettle");
  }

  @Test
  void otherCommandsAndStaleAdvertisementsGoToTheJvm() throws Exception {
    // 'trace list' is not served, --local is in-process, a dead pid or a closed port is stale:
    // each goes to the JVM, which in this install cannot start.
    assertFallsBack(launcher(List.of("--data", data.toString(), "trace", "list")));
    assertFallsBack(launcher(List.of("--data", data.toString(), "status", "--local")));
    Path stale = Files.createDirectories(tmp.resolve("stale"));
    String ad = Files.readString(ServerAdvertisement.file(data));
    var dead = new ProcessBuilder("true").start();
    dead.waitFor();
    Files.writeString(
        ServerAdvertisement.file(stale),
        ad.replaceFirst("\"pid\" *: *\\d+", "\"pid\" : " + dead.pid()));
    assertFallsBack(launcher(List.of("--data", stale.toString(), "status")));
    int closedPort;
    try (var socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Files.writeString(
        ServerAdvertisement.file(stale),
        ad.replaceFirst(":" + server.port() + "/", ":" + closedPort + "/"));
    assertFallsBack(launcher(List.of("--data", stale.toString(), "status")));
  }

  @Test
  void aCopiedDataDirectoryGoesToTheJvmNotToTheOriginalsServer() throws Exception {
    // A backup of the data directory: its server.json names the original's live server, which
    // answers the hello for its own directory, not for the copy's path.
    Path copy = Files.createDirectories(tmp.resolve("copy"));
    Files.copy(ServerAdvertisement.file(data), ServerAdvertisement.file(copy));
    assertFallsBack(launcher(List.of("--data", copy.toString(), "search", "kettle")));
  }

  @Test
  void aStandInOnTheAdvertisedPortIsSentNeitherTheTokenNorTheQuestion() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("stand-in"));
    String token = "tok-" + "7".repeat(40);
    byte[] forged =
        StandIn.http(
            "200 OK",
            "Content-Type: application/json\r\nBrain-Exit-Code: 0\r\nBrain-Stdout-Length: 9\r\n",
            ("{\"proof\":\"" + "a".repeat(64) + "\"}\u001b]0;owned\u0007 run curl x | sh")
                .getBytes(StandardCharsets.UTF_8));
    try (var standIn = new StandIn(request -> forged)) {
      advertise(dir, standIn.url(), token, CliProof.random());
      var run =
          launcher(List.of("--data", dir.toString(), "search", "my private medical question"));
      assertFallsBack(run);
      assertThat(run.out()).doesNotContain("owned");
      assertThat(standIn.received())
          .contains("POST /api/cli/hello")
          .doesNotContainIgnoringCase("Authorization")
          .doesNotContain(token)
          .doesNotContain("medical");
    }
  }

  @Test
  void aStandInThatAcceptsAndNeverAnswersCostsSecondsNotMinutes() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("silent"));
    try (var silent = new StandIn(request -> null)) {
      advertise(dir, silent.url(), "0".repeat(64), CliProof.random());
      for (String command : List.of("search", "status")) {
        var args = new ArrayList<>(List.of(launcher.toString(), "--data", dir.toString()));
        args.add(command);
        if (command.equals("search")) {
          args.add("kettle");
        }
        assertFallsBack(run(args, Map.of(), Duration.ofSeconds(20)));
      }
      assertThat(silent.received()).contains("/api/cli/hello").doesNotContain("Authorization");
    }
  }

  @Test
  void aTokenThatCouldBreakTheHeaderIsNeverSent() throws Exception {
    // The real server and its secret, but a token with a quote and a line break (JSON-escaped in
    // the file): nothing is sent with it.
    Path dir = Files.createDirectories(tmp.resolve("bad-token"));
    String ad = Files.readString(ServerAdvertisement.file(data));
    Files.writeString(
        ServerAdvertisement.file(dir),
        ad.replaceFirst("\"token\" *: *\"[^\"]*\"", "\"token\" : \"ab\\\\\"c\\\\nX-Evil: 1\""));
    assertThat(Files.readString(ServerAdvertisement.file(dir))).contains("ab\\\"c\\nX-Evil");
    assertFallsBack(launcher(List.of("--data", dir.toString(), "status")));
  }

  @Test
  void anAdvertisedHostNameIsNeverContacted() throws Exception {
    // A listener that relays a valid proof still gets nothing when the URL is a name: curl may
    // connect it to another address (::1 first) than the server's.
    Path dir = Files.createDirectories(tmp.resolve("by-name"));
    String secret = CliProof.random();
    var nonce = java.util.regex.Pattern.compile("\"nonce\":\"([0-9a-f]{64})\"");
    try (var relay =
        new StandIn(
            request -> {
              var m = nonce.matcher(request);
              String proof =
                  m.find() ? CliProof.proof(secret, m.group(1), CliProof.realPath(dir)) : "";
              return StandIn.http(
                  "200 OK",
                  "Content-Type: application/json\r\n",
                  ("{\"proof\":\"" + proof + "\"}").getBytes(StandardCharsets.UTF_8));
            })) {
      advertise(dir, relay.url().replace("127.0.0.1", "localhost"), "0".repeat(64), secret);
      assertFallsBack(launcher(List.of("--data", dir.toString(), "search", "private question")));
      assertThat(relay.received()).isEmpty();
    }
  }

  @Test
  void anAnswerWithControlCharactersIsNeverPrintedRaw() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("proving"));
    String secret = CliProof.random();
    var nonce = java.util.regex.Pattern.compile("\"nonce\":\"([0-9a-f]{64})\"");
    byte[] body = "title \u001b]0;owned\u0007\u001b[2J\n".getBytes(StandardCharsets.UTF_8);
    try (var proving =
        new StandIn(
            request -> {
              var m = nonce.matcher(request);
              if (m.find()) {
                String proof = CliProof.proof(secret, m.group(1), CliProof.realPath(dir));
                return StandIn.http(
                    "200 OK",
                    "Content-Type: application/json\r\n",
                    ("{\"proof\":\"" + proof + "\"}").getBytes(StandardCharsets.UTF_8));
              }
              return StandIn.http(
                  "200 OK",
                  "Brain-Exit-Code: 0\r\nBrain-Stdout-Length: " + body.length + "\r\n",
                  body);
            })) {
      advertise(dir, proving.url(), "0".repeat(64), secret);
      var run = launcher(List.of("--data", dir.toString(), "search", "kettle"));
      // It proved itself, so it was sent the command; its answer goes to the JVM to be escaped.
      assertThat(proving.received()).contains("Authorization: Bearer " + "0".repeat(64));
      assertFallsBack(run);
      assertThat(run.out()).doesNotContain("\u001b").doesNotContain("owned");
    }
  }

  private static void advertise(Path dir, String url, String token, String secret)
      throws IOException {
    Files.writeString(
        ServerAdvertisement.file(dir),
        "{\"pid\": "
            + ProcessHandle.current().pid()
            + ", \"url\": \""
            + url
            + "\", \"token\": \""
            + token
            + "\", \"secret\": \""
            + secret
            + "\"}");
  }

  private static void assertFallsBack(Run run) {
    assertThat(run.code()).as(run.out()).isNotZero();
    assertThat(run.err()).containsIgnoringCase("jar");
  }

  @Test
  void endpointNeedsTheTokenAndRefusesForeignPagesOtherBodiesAndOtherCommands() throws Exception {
    String token = advertisement.advertisement().token();
    String search = "{\"args\":[\"search\",\"kettle\"]}";
    var ok = post(token, "application/json", search, "");
    assertThat(ok).startsWith("HTTP/1.1 200").containsIgnoringCase("brain-exit-code: 0");
    assertThat(post(null, "application/json", search, "")).startsWith("HTTP/1.1 401");
    assertThat(post("0".repeat(64), "application/json", search, "")).startsWith("HTTP/1.1 401");
    assertThat(post(token, "application/json", search, "Origin: http://evil.example\r\n"))
        .startsWith("HTTP/1.1 403")
        .contains("forbidden_origin");
    assertThat(post(token, "text/plain", search, "")).startsWith("HTTP/1.1 415");
    for (String args :
        List.of(
            "[\"index\",\"--rebuild\"]",
            "[\"index\",\"relative/folder\"]",
            "[\"index\",\"--local\"]",
            "[\"search\",\"--help\"]",
            "[\"search\"]",
            "[\"research\",\"--model\",\"openai:gpt-4o\",\"kettle\"]")) {
      assertThat(post(token, "application/json", "{\"args\":" + args + "}", ""))
          .as(args)
          .startsWith("HTTP/1.1 422")
          .contains("not_served");
    }
    assertThat(post(token, "application/json", "{\"args\":[]}", "")).startsWith("HTTP/1.1 400");
    // The hello needs no token and proves the server with its secret over its data directory.
    String nonce = CliProof.random();
    String helloBody = "{\"nonce\":\"" + nonce + "\"}";
    String hello =
        raw(
            "POST /api/cli/hello HTTP/1.1\r\nHost: 127.0.0.1:"
                + server.port()
                + "\r\nContent-Type: application/json\r\nContent-Length: "
                + helloBody.length()
                + "\r\nConnection: close\r\n\r\n"
                + helloBody);
    assertThat(hello)
        .startsWith("HTTP/1.1 200")
        .contains(CliProof.proof(server.cliSecret(), nonce, CliProof.realPath(data)));
    assertThat(
            raw(
                "POST /api/cli/hello HTTP/1.1\r\nHost: 127.0.0.1:"
                    + server.port()
                    + "\r\nContent-Type: application/json\r\nContent-Length: 15\r\n"
                    + "Connection: close\r\n\r\n{\"nonce\":\"XYZ\"}"))
        .startsWith("HTTP/1.1 422");
    // A foreign Host (a DNS-rebinding page) is refused before the token is even looked at.
    assertThat(raw("POST /api/cli HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 0\r\n\r\n"))
        .startsWith("HTTP/1.1 403")
        .contains("forbidden_host");
  }

  /** The reply's head and body as text, sent over a raw socket (so any Host can be named). */
  private static String post(String token, String type, String body, String extraHeaders)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String head =
        "POST /api/cli HTTP/1.1\r\nHost: 127.0.0.1:"
            + server.port()
            + "\r\nContent-Type: "
            + type
            + "\r\nContent-Length: "
            + bytes.length
            + "\r\nConnection: close\r\n"
            + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
            + extraHeaders
            + "\r\n";
    return raw(head + body);
  }

  private static String raw(String request) throws IOException {
    try (var socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(60_000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
      socket.shutdownOutput();
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Lane timings differ from run to run; everything else must not (the timeline's too). */
  private static String masked(String out) {
    return out.replaceAll("(?s)\"timings_ms\" : \\{[^}]*}", "\"timings_ms\" : {}")
        .replaceAll("\\d+(\\.\\d+)? ms", "N ms")
        .replaceAll("\"took_ms\" : [0-9.E-]+", "\"took_ms\" : N")
        .replaceAll("\"(\\w+_ms)\" : [0-9.E-]+", "\"$1\" : N");
  }

  private static Run inProcess(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  private static Run launcher(List<String> args) throws Exception {
    var command = new ArrayList<String>();
    command.add(launcher.toString());
    command.addAll(args);
    return run(command, Map.of());
  }

  private static Run run(List<String> command, Map<String, String> env) throws Exception {
    return run(command, env, Duration.ofMinutes(5));
  }

  private static Run run(List<String> command, Map<String, String> env, Duration timeout)
      throws Exception {
    var pb = new ProcessBuilder(command).directory(tmp.toFile());
    pb.environment().remove("BRAIN_HOME");
    pb.environment().putAll(env);
    Path out = Files.createTempFile(tmp, "out", ".txt");
    Path err = Files.createTempFile(tmp, "err", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + command);
    }
    return new Run(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
