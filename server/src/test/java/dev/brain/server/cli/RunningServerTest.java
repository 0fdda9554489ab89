package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.BrainConfig;
import dev.brain.server.http.BrainServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code search}, {@code get}, {@code status} and {@code research} (pack and extractive answer)
 * through a server advertised in the data directory. Two data directories hold different notes, so
 * the output shows who answered: a server over {@code served} advertised in {@code local}'s
 * directory answers with {@code served}'s note, the in-process fallback with {@code local}'s.
 */
class RunningServerTest {

  @TempDir static Path tmp;

  private static Path served;
  private static Path local;
  private static BrainServer server;

  record Run(int code, String out, String err) {}

  @BeforeAll
  static void indexTwoVaultsAndServeOne() throws IOException {
    served =
        index("served", "kettle.md", "# Gooseneck kettle\n\nThe gooseneck kettle pours slowly.");
    local = index("local", "scale.md", "# Coffee scale\n\nThe gooseneck scale weighs the beans.");
    var config = BrainConfig.defaults(served);
    server =
        BrainServer.start(config.withServer(config.server().withPort(0)), ServerCommands.INSTANCE);
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
    try (var ad = ServerAdvertisement.publish(local, server)) {
      assertThat(ad.advertisement().url()).isEqualTo(server.url().toString());
      var run = search();
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out()).contains("kettle.md").doesNotContain("scale.md");

      var get = brain("--data", local.toString(), "get", "--json", keyIn(run.out()));
      assertThat(get.code()).as(get.err()).isZero();
      assertThat(get.out()).contains("The gooseneck kettle pours slowly.");

      var pack =
          brain("--data", local.toString(), "research", "--retrieval-only", "gooseneck kettle");
      assertThat(pack.code()).as(pack.err()).isZero();
      assertThat(pack.out()).contains("kettle.md").doesNotContain("scale.md");
    }
  }

  @Test
  void researchWithAnAnswerAndStatusAreAnsweredByTheServer() throws IOException {
    try (var ad = ServerAdvertisement.publish(local, server)) {
      assertThat(ad.advertisement().url()).isEqualTo(server.url().toString());
      var run = brain("--data", local.toString(), "research", "--no-trace", "gooseneck kettle");
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out()).contains("kettle.md").doesNotContain("scale.md");
      assertThat(run.out()).contains("answer by extractive").contains("trace: off");
      assertThat(run.err()).contains("retrieval");

      var status = brain("--data", local.toString(), "status");
      assertThat(status.code()).as(status.err()).isZero();
      assertThat(status.out()).contains("served-vault").doesNotContain("local-vault");

      var inProcess = brain("--data", local.toString(), "status", "--local");
      assertThat(inProcess.out()).contains("local-vault").doesNotContain("served-vault");
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
    try (var ad = ServerAdvertisement.publish(local, server)) {
      assertThat(ServerAdvertisement.read(local)).contains(ad.advertisement());
      var run = search("--local");
      assertThat(run.code()).as(run.err()).isZero();
      assertThat(run.out()).contains("scale.md").doesNotContain("kettle.md");
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
      writeAdvertisement(other.pid(), server.url().toString(), "0".repeat(64));
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
    Files.writeString(
        ServerAdvertisement.file(local),
        "{\"pid\": " + pid + ", \"url\": \"" + url + "\", \"token\": \"" + token + "\"}");
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
