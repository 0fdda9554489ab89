package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.brain.BrainConfig;
import dev.brain.server.http.BrainServer;
import dev.brain.server.http.CliProof;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code search}, {@code get}, {@code status} and {@code research} (pack and extractive answer)
 * through a server advertised in the data directory. The server counts the commands it runs, so a
 * test sees who answered. Two data directories hold different notes: the server of {@code served}
 * advertised in {@code local}'s directory (as in a copy of {@code served}) must not answer for it,
 * and stand-ins on the advertised port must never see the token or the question.
 */
class RunningServerTest {

  @TempDir static Path tmp;

  private static Path served;
  private static Path local;
  private static BrainServer server;
  private static final AtomicInteger SERVED_COMMANDS = new AtomicInteger();

  record Run(int code, String out, String err) {}

  @BeforeAll
  static void indexTwoVaultsAndServeOne() throws IOException {
    served =
        index("served", "kettle.md", "# Gooseneck kettle\n\nThe gooseneck kettle pours slowly.");
    local = index("local", "scale.md", "# Coffee scale\n\nThe gooseneck scale weighs the beans.");
    var config = BrainConfig.defaults(served);
    server =
        BrainServer.start(
            config.withServer(config.server().withPort(0)),
            (brain, args) -> {
              // Not the search the server makes of itself when it starts (its warm-up), which
              // may come in while a test counts.
              if (!args.contains("warm up the index")) {
                SERVED_COMMANDS.incrementAndGet();
              }
              return ServerCommands.INSTANCE.run(brain, args);
            });
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static Path index(String name, String file, String text) throws IOException {
    Path vault = Files.createDirectories(tmp.resolve(name + "-vault"));
    Files.writeString(vault.resolve(file), text);
    Path data = tmp.resolve(name + "-data");
    var run = brain("--data", data.toString(), "index", vault.toString());
    assertThat(run.code()).as(run.err()).isZero();
    return data;
  }

  private static Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  private static Run search(String... extra) {
    var args = new java.util.ArrayList<>(java.util.List.of("--data", local.toString(), "search"));
    args.addAll(java.util.List.of(extra));
    args.add("gooseneck");
    return brain(args.toArray(String[]::new));
  }

  @Test
  void aLiveAdvertisedServerAnswersSearchGetAndPacks() throws IOException {
    try (var ad = ServerAdvertisement.publish(served, server)) {
      assertThat(ad.advertisement().url()).isEqualTo(server.url().toString());
      int before = SERVED_COMMANDS.get();
      var run = brain("--data", served.toString(), "search", "gooseneck");
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out()).contains("kettle.md");

      var get = brain("--data", served.toString(), "get", "--json", keyIn(run.out()));
      assertThat(get.code()).as(get.err()).isZero();
      assertThat(get.out()).contains("The gooseneck kettle pours slowly.");

      var pack =
          brain("--data", served.toString(), "research", "--retrieval-only", "gooseneck kettle");
      assertThat(pack.code()).as(pack.err()).isZero();
      assertThat(pack.out()).contains("kettle.md");
      assertThat(SERVED_COMMANDS.get()).isEqualTo(before + 3);
    }
  }

  @Test
  void researchWithAnAnswerAndStatusAreAnsweredByTheServer() throws IOException {
    try (var ad = ServerAdvertisement.publish(served, server)) {
      assertThat(ad.advertisement().url()).isEqualTo(server.url().toString());
      int before = SERVED_COMMANDS.get();
      var run = brain("--data", served.toString(), "research", "--no-trace", "gooseneck kettle");
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out()).contains("kettle.md");
      assertThat(run.out()).contains("answer by extractive").contains("trace: off");
      assertThat(run.err()).contains("retrieval");

      var status = brain("--data", served.toString(), "status");
      assertThat(status.code()).as(status.err()).isZero();
      assertThat(status.out()).contains("served-vault");
      assertThat(SERVED_COMMANDS.get()).isEqualTo(before + 2);

      var inProcess = brain("--data", served.toString(), "status", "--local");
      assertThat(inProcess.out()).contains("served-vault");
      assertThat(SERVED_COMMANDS.get()).isEqualTo(before + 2);
    }
  }

  @Test
  void remoteAndInProcessResearchAndStatusPrintTheSame() throws IOException {
    String[] research = {"--data", served.toString(), "research", "--no-trace", "gooseneck kettle"};
    String[] status = {"--data", served.toString(), "status"};
    Run researchHere = brain(withLocal(research));
    Run statusHere = brain(withLocal(status));
    Run researchThere;
    Run statusThere;
    Run jsonThere;
    try (var ad = ServerAdvertisement.publish(served, server)) {
      assertThat(ServerAdvertisement.read(served)).contains(ad.advertisement());
      researchThere = brain(research);
      statusThere = brain(status);
      jsonThere = brain("--data", served.toString(), "research", "--json", "gooseneck kettle");
    }
    assertThat(researchThere.code()).as(researchThere.err()).isEqualTo(researchHere.code());
    assertThat(researchThere.out()).isEqualTo(researchHere.out()).contains("kettle.md");
    assertThat(statusThere.out()).isEqualTo(statusHere.out()).contains("served-vault");
    assertThat(jsonThere.code()).as(jsonThere.err()).isZero();
    assertThat(jsonThere.out()).contains("\"schema_version\" : \"research_run.v1\"");
    var trace =
        java.util.regex.Pattern.compile("\"trace_path\" : \"([^\"]+)\"").matcher(jsonThere.out());
    assertThat(trace.find()).as(jsonThere.out()).isTrue();
    assertThat(Path.of(trace.group(1))).startsWith(served).isDirectory();
  }

  private static String[] withLocal(String[] args) {
    var list = new java.util.ArrayList<>(java.util.List.of(args));
    list.add(3, "--local");
    return list.toArray(String[]::new);
  }

  @Test
  void localOptionSearchesInProcessDespiteALiveServer() throws IOException {
    try (var ad = ServerAdvertisement.publish(served, server)) {
      assertThat(ServerAdvertisement.read(served)).contains(ad.advertisement());
      int before = SERVED_COMMANDS.get();
      var run = brain("--data", served.toString(), "search", "--local", "gooseneck");
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out()).contains("kettle.md");
      assertThat(SERVED_COMMANDS.get()).isEqualTo(before);
    }
  }

  @Test
  void aCopiedDataDirectoryIsAnsweredFromItsOwnIndexNotByTheOriginalsServer() throws Exception {
    try (var ad = ServerAdvertisement.publish(served, server)) {
      assertThat(ad.advertisement().secret()).isEqualTo(server.cliSecret());
      // A backup: the whole directory, its server.json naming the original's live server.
      Path copy = tmp.resolve("served-copy");
      try (var files = Files.walk(served)) {
        for (Path from : (Iterable<Path>) files::iterator) {
          Path to = copy.resolve(served.relativize(from).toString());
          if (Files.isDirectory(from)) {
            Files.createDirectories(to);
          } else if (!from.getFileName().toString().equals("write.lock")) {
            Files.copy(from, to);
          }
        }
      }
      // ... and a directory whose server.json was copied in from the other one.
      Files.copy(ServerAdvertisement.file(served), ServerAdvertisement.file(local));
      int before = SERVED_COMMANDS.get();

      var fromCopy = brain("--data", copy.toString(), "search", "gooseneck");
      assertThat(fromCopy.code()).as(fromCopy.err()).isZero();
      assertThat(fromCopy.out()).contains("kettle.md");
      var fromLocal = search();
      assertThat(fromLocal.code()).as(fromLocal.err()).isZero();
      assertThat(fromLocal.out()).contains("scale.md").doesNotContain("kettle.md");
      assertThat(SERVED_COMMANDS.get()).as("the original's server ran nothing").isEqualTo(before);
    } finally {
      Files.deleteIfExists(ServerAdvertisement.file(local));
    }
  }

  @Test
  void aStandInOnTheAdvertisedPortIsSentNeitherTheTokenNorTheQuestion() throws Exception {
    String token = "tok-" + "7".repeat(40);
    // It answers everything with a forged proof and an answer meant for the terminal.
    byte[] forged =
        StandIn.http(
            "200 OK",
            "Content-Type: application/json\r\nBrain-Exit-Code: 0\r\nBrain-Stdout-Length: 60\r\n",
            ("{\"proof\":\"" + "a".repeat(64) + "\"}\u001b]0;owned\u0007\u001b[2J run curl x | sh")
                .getBytes(StandardCharsets.UTF_8));
    try (var standIn = new StandIn(request -> forged)) {
      writeAdvertisement(ProcessHandle.current().pid(), standIn.url(), token);
      var run =
          brain("--data", local.toString(), "search", "gooseneck", "my private medical question");
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out()).contains("scale.md").doesNotContain("owned").doesNotContain("\u001b");
      assertThat(standIn.received())
          .contains("POST /api/cli/hello")
          .doesNotContainIgnoringCase("Authorization")
          .doesNotContain(token)
          .doesNotContain("medical")
          .doesNotContain("/api/cli ");
    } finally {
      Files.deleteIfExists(ServerAdvertisement.file(local));
    }
  }

  @Test
  void aServerWithServerTokenProvesItselfBeforeItIsSentTheToken() throws IOException {
    var counted = new AtomicInteger();
    var config = BrainConfig.defaults(served);
    var settings = config.server().withPort(0).withToken("s3cret-token-0123456789abcdef");
    try (var guarded =
            BrainServer.start(
                config.withServer(settings),
                (brain, args) -> {
                  if (args.contains("gooseneck")) { // the test's search, not the warm-up's
                    counted.incrementAndGet();
                  }
                  return ServerCommands.INSTANCE.run(brain, args);
                });
        var ad = ServerAdvertisement.publish(served, guarded)) {
      assertThat(ad.advertisement().token()).isEqualTo("s3cret-token-0123456789abcdef");
      var run = brain("--data", served.toString(), "search", "gooseneck");
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out()).contains("kettle.md");
      assertThat(counted.get()).isEqualTo(1);
    }
  }

  @Test
  void aServerWithAPassphraseTokenIsNotSentItAndTheCommandRunsInProcess() throws IOException {
    var counted = new AtomicInteger();
    var config = BrainConfig.defaults(served);
    var settings = config.server().withPort(0).withToken("Tr0ub4dor&3!horse battery");
    try (var guarded =
            BrainServer.start(
                config.withServer(settings),
                (brain, args) -> {
                  if (args.contains("gooseneck")) { // the test's search, not the warm-up's
                    counted.incrementAndGet();
                  }
                  return ServerCommands.INSTANCE.run(brain, args);
                });
        var ad = ServerAdvertisement.publish(served, guarded)) {
      assertThat(ad.advertisement().token()).isEqualTo("Tr0ub4dor&3!horse battery");
      assertThat(ServerAdvertisement.read(served)).isEmpty();
      var run = brain("--data", served.toString(), "search", "gooseneck");
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out()).contains("kettle.md");
      assertThat(counted.get()).as("the server ran nothing").isZero();
    }
  }

  @Test
  void anAdvertisementNamingAHostNameIsNeverContacted() throws Exception {
    // Even a listener that knows the secret (a relay of the real server's proof) gets nothing
    // when the URL is a name: the name may resolve to another address than the server's.
    String secret = CliProof.random();
    var nonce = java.util.regex.Pattern.compile("\"nonce\":\"([0-9a-f]{64})\"");
    try (var relay =
        new StandIn(
            request -> {
              var m = nonce.matcher(request);
              String proof =
                  m.find() ? CliProof.proof(secret, m.group(1), CliProof.realPath(local)) : "";
              return StandIn.http(
                  "200 OK",
                  "Content-Type: application/json\r\n",
                  ("{\"proof\":\"" + proof + "\"}").getBytes(StandardCharsets.UTF_8));
            })) {
      String byName = relay.url().replace("127.0.0.1", "localhost");
      writeAdvertisement(ProcessHandle.current().pid(), byName, "0".repeat(64), secret);
      var run = brain("--data", local.toString(), "search", "gooseneck", "private question");
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out()).contains("scale.md");
      assertThat(relay.received()).isEmpty();
    } finally {
      Files.deleteIfExists(ServerAdvertisement.file(local));
    }
  }

  @Test
  void aServerBoundToLocalhostAdvertisesTheIpLiteralItListensOn() throws IOException {
    var counted = new AtomicInteger();
    var config =
        BrainConfig.load(
            served, Map.of("BRAIN_SERVER_HOST", "localhost", "BRAIN_SERVER_PORT", "0"), List.of());
    try (var named =
            BrainServer.start(
                config,
                (brain, args) -> {
                  if (args.contains("gooseneck")) { // the test's search, not the warm-up's
                    counted.incrementAndGet();
                  }
                  return ServerCommands.INSTANCE.run(brain, args);
                });
        var ad = ServerAdvertisement.publish(served, named)) {
      String literal =
          java.net.InetAddress.getByName("localhost").isLoopbackAddress()
              ? named.url().getHost()
              : "";
      assertThat(literal).isIn("127.0.0.1", "[::1]");
      assertThat(ad.advertisement().url()).isEqualTo(named.url().toString());
      assertThat(named.loginUrl().getHost()).isEqualTo(literal);
      var run = brain("--data", served.toString(), "search", "gooseneck");
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out()).contains("kettle.md");
      assertThat(counted.get()).as("the server answered at its advertised literal").isEqualTo(1);
    }
  }

  @Test
  void aStandInThatAcceptsAndNeverAnswersCostsSecondsNotMinutes() throws Exception {
    try (var silent = new StandIn(request -> null)) {
      writeAdvertisement(ProcessHandle.current().pid(), silent.url(), "0".repeat(64));
      var run =
          assertTimeoutPreemptively(
              Duration.ofSeconds(30), () -> brain("--data", local.toString(), "status"));
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out()).contains("local-vault");
      assertThat(silent.received()).contains("/api/cli/hello").doesNotContain("Authorization");
    } finally {
      Files.deleteIfExists(ServerAdvertisement.file(local));
    }
  }

  @Test
  void aServerThatProvesItselfHasItsAnswerPrintedEscaped() throws Exception {
    String secret = CliProof.random();
    String stdout = "1. note:x.md  \u001b]0;owned\u0007 title\u001b[2J\n";
    byte[] body = (stdout + "\u001b[31mred").getBytes(StandardCharsets.UTF_8);
    int stdoutBytes = stdout.getBytes(StandardCharsets.UTF_8).length;
    var nonce = java.util.regex.Pattern.compile("\"nonce\":\"([0-9a-f]{64})\"");
    try (var proving =
        new StandIn(
            request -> {
              var m = nonce.matcher(request);
              if (m.find()) {
                String proof = CliProof.proof(secret, m.group(1), CliProof.realPath(local));
                return StandIn.http(
                    "200 OK",
                    "Content-Type: application/json\r\n",
                    ("{\"proof\":\"" + proof + "\"}").getBytes(StandardCharsets.UTF_8));
              }
              return StandIn.http(
                  "200 OK",
                  "Brain-Exit-Code: 0\r\nBrain-Stdout-Length: " + stdoutBytes + "\r\n",
                  body);
            })) {
      writeAdvertisement(ProcessHandle.current().pid(), proving.url(), "0".repeat(64), secret);
      var run = brain("--data", local.toString(), "search", "gooseneck");
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out())
          .doesNotContain("\u001b")
          .doesNotContain("\u0007")
          .contains("\\e]0;owned\\x07 title\\e[2J");
      assertThat(run.err()).doesNotContain("\u001b").contains("\\e[31mred");
      assertThat(proving.received()).contains("Authorization: Bearer " + "0".repeat(64));
    } finally {
      Files.deleteIfExists(ServerAdvertisement.file(local));
    }
  }

  @Test
  void tokensThatCouldBreakAHeaderAreNeitherConfiguredNorRead() throws IOException {
    var settings = BrainConfig.defaults(local).server();
    assertThatThrownBy(() -> settings.withToken("s3cret\"token\nX-Evil: 1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("server.token must not contain control characters");
    assertThat(settings.withToken("base64+/token_with-all.chars~==").token())
        .isEqualTo("base64+/token_with-all.chars~==");
    Files.writeString(
        ServerAdvertisement.file(local),
        "{\"pid\": "
            + ProcessHandle.current().pid()
            + ", \"url\": \""
            + server.url()
            + "\", \"token\": \"abc\\\"def\\nX-Evil: 1\", \"secret\": \""
            + server.cliSecret()
            + "\"}");
    try {
      assertThat(ServerAdvertisement.read(local)).isEmpty();
    } finally {
      Files.deleteIfExists(ServerAdvertisement.file(local));
    }
  }

  @Test
  void remoteAndInProcessPrintTheSameRows() throws IOException {
    String inProcess = brain("--data", served.toString(), "search", "--local", "gooseneck").out();
    String remote;
    try (var ad = ServerAdvertisement.publish(served, server)) {
      assertThat(ad.advertisement().pid()).isEqualTo(ProcessHandle.current().pid());
      remote = brain("--data", served.toString(), "search", "gooseneck").out();
    }
    assertThat(withoutTimings(remote)).isEqualTo(withoutTimings(inProcess)).contains("kettle.md");
  }

  @Test
  void advertisementOfADeadProcessFallsBackToInProcess() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    writeAdvertisement(gone.pid(), server.url().toString(), "0".repeat(64));
    var run = search();
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("scale.md").doesNotContain("kettle.md");
  }

  @Test
  void advertisementOfARefusedPortFallsBackToInProcess() throws Exception {
    int closedPort;
    try (var socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    long alive = ProcessHandle.current().pid();
    writeAdvertisement(alive, "http://127.0.0.1:" + closedPort + "/", "0".repeat(64));
    var run = search();
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("scale.md");
  }

  @Test
  void advertisementNamingAnotherProcessThanTheServersIsIgnored() throws Exception {
    Process other = new ProcessBuilder("sleep", "60").start();
    try {
      writeAdvertisement(other.pid(), server.url().toString(), server.clientToken());
      var run = search();
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out()).contains("scale.md").doesNotContain("kettle.md");
    } finally {
      other.destroy();
    }
  }

  @Test
  void advertisementIsPrivateToTheUserAndWithdrawnOnClose() throws IOException {
    Path file = ServerAdvertisement.file(local);
    try (var ad = ServerAdvertisement.publish(local, server)) {
      assertThat(file).exists();
      assertThat(ad.advertisement().token()).hasSize(64);
      if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
        assertThat(Files.getPosixFilePermissions(file))
            .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
      }
    }
    assertThat(file).doesNotExist();
  }

  private static void writeAdvertisement(long pid, String url, String token) throws IOException {
    writeAdvertisement(pid, url, token, CliProof.random());
  }

  private static void writeAdvertisement(long pid, String url, String token, String secret)
      throws IOException {
    Files.writeString(
        ServerAdvertisement.file(local),
        "{\"pid\": "
            + pid
            + ", \"url\": \""
            + url
            + "\", \"token\": \""
            + token
            + "\", \"secret\": \""
            + secret
            + "\"}");
  }

  private static String keyIn(String searchOutput) {
    var m = java.util.regex.Pattern.compile(" 1\\. (\\S+)").matcher(searchOutput);
    assertThat(m.find()).as(searchOutput).isTrue();
    return m.group(1);
  }

  private static String withoutTimings(String out) {
    return out.replaceAll("[0-9.]+ ms", "N ms");
  }
}
