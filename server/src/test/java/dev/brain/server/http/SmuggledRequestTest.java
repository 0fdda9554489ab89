package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.BrainConfig;
import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A refused request must not run anyway: the body of a request the server answers early (403
 * foreign origin or host, 401, 415, 413, 4xx from validation) is never read as a second request on
 * the same connection. Each case sends one request over a raw socket whose body is itself an HTTP
 * request, and asserts exactly one response on the connection and no side effect on disk.
 */
class SmuggledRequestTest {
  private static final String NOTE_KEY = "note:vault/Grinder.md";

  @TempDir static Path dir;
  static Path vault;
  static Path data;
  static BrainServer server;
  static String runId;

  @BeforeAll
  static void start() throws Exception {
    vault = Files.createDirectories(dir.resolve("vault"));
    Files.writeString(
        vault.resolve("Grinder.md"),
        "# Grinder\n\nThe [[Espresso]] grind is 15 on the burr grinder.\n");
    Files.writeString(
        vault.resolve("Espresso.md"),
        "# Espresso\n\n18 g in, 36 g out. Grind 15 on the grinder.\n");
    data = dir.resolve("data");
    var collections = List.of(CollectionRoot.of("vault", vault));
    CollectionsFile.of(data).write(collections);
    BrainConfig config = SampleVaultData.onAnyPort(data);
    try (var index = BrainIndex.open(config.indexConfig())) {
      index.syncCollections(collections, null);
    }
    server = BrainServer.start(config);
    var run =
        Http.send(Sse.post(server.url().resolve("/api/research/run"), "{\"question\":\"grind\"}"));
    assertThat(run.status()).as(run.body()).isEqualTo(200);
    var traces = Http.get(server.url(), "/api/research/traces");
    runId = traces.json().path("traces").path(0).path("run_id").asText();
    assertThat(runId).isNotEmpty();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String host() {
    return "127.0.0.1:" + server.port();
  }

  /** A complete request: head lines (without Host and Content-Length) and a body. */
  private static String request(String method, String path, String headers, String body) {
    int length = body.getBytes(StandardCharsets.UTF_8).length;
    return method
        + " "
        + path
        + " HTTP/1.1\r\nHost: "
        + host()
        + "\r\n"
        + headers
        + (length > 0 || method.equals("POST") ? "Content-Length: " + length + "\r\n" : "")
        + "\r\n"
        + body;
  }

  private static String smuggledHealth() {
    return request("GET", "/api/health", "", "");
  }

  private static String smuggledNoteWrite() {
    String json = "{\"path\":\"" + NOTE_KEY + "\"}";
    return request(
        "POST",
        "/api/note/research",
        "Content-Type: application/json\r\nAuthorization: Bearer " + server.clientToken() + "\r\n",
        json);
  }

  private static String smuggledEvalCase() {
    String json = "{\"run_id\":\"" + runId + "\",\"file\":\"smuggled\"}";
    return request(
        "POST",
        "/api/research/eval-cases",
        "Content-Type: application/json\r\nAuthorization: Bearer " + server.clientToken() + "\r\n",
        json);
  }

  private static RawHttp.Conversation send(String outerHeaders, String path, String inner) {
    String outer = request("POST", path, outerHeaders, inner);
    return RawHttp.converse(server.port(), outer.getBytes(StandardCharsets.UTF_8), 3000);
  }

  private static void assertOneResponse(RawHttp.Conversation c, int status) {
    assertThat(c.statuses()).as(c.text()).containsExactly(status);
  }

  @Test
  void aForeignOriginWithATextBodyGetsOneRefusalAndTheBodyNeverRuns() {
    var c =
        send(
            "Origin: http://evil.example\r\nContent-Type: text/plain\r\n",
            "/api/research",
            smuggledHealth());
    assertOneResponse(c, 403);
    assertThat(c.text()).contains("forbidden_origin");
  }

  @Test
  void aForeignHostGetsOneRefusal() {
    String outer =
        "POST /api/research HTTP/1.1\r\nHost: evil.example\r\nContent-Type: text/plain\r\n"
            + "Content-Length: "
            + smuggledHealth().length()
            + "\r\n\r\n"
            + smuggledHealth();
    var c = RawHttp.converse(server.port(), outer.getBytes(StandardCharsets.UTF_8), 3000);
    assertOneResponse(c, 403);
    assertThat(c.text()).contains("forbidden_host");
  }

  @Test
  void aTextPlainBodyWithoutOriginGetsOne415() {
    var c = send("Content-Type: text/plain\r\n", "/api/research", smuggledHealth());
    assertOneResponse(c, 415);
  }

  @Test
  void aMultipartBodyGetsOne415() {
    var c =
        send(
            "Content-Type: multipart/form-data; boundary=x\r\nSec-Fetch-Site: cross-site\r\n",
            "/api/research",
            smuggledHealth());
    assertOneResponse(c, 403);
    var plain =
        send(
            "Content-Type: multipart/form-data; boundary=x\r\n", "/api/research", smuggledHealth());
    assertOneResponse(plain, 415);
  }

  @Test
  void aBodyAfterAValidationErrorIsNotASecondRequest() {
    // The route refuses the query before reading the body: the body must still not run.
    var c =
        send("Content-Type: application/json\r\n", "/api/search?q=x&limit=nope", smuggledHealth());
    assertThat(c.statuses()).as(c.text()).hasSize(1);
    assertThat(c.statuses().getFirst()).isBetween(400, 499);
  }

  @Test
  void aSmuggledNoteWriteLeavesTheNoteAsItWas() throws Exception {
    Path note = vault.resolve("Grinder.md");
    String before = Files.readString(note);
    var c =
        send(
            "Origin: http://evil.example\r\nContent-Type: text/plain\r\n",
            "/api/research",
            smuggledNoteWrite());
    assertOneResponse(c, 403);
    var noOrigin = send("Content-Type: text/plain\r\n", "/api/research", smuggledNoteWrite());
    assertOneResponse(noOrigin, 415);
    assertThat(Files.readString(note)).isEqualTo(before);
  }

  @Test
  void aSmuggledEvalCaseCreatesNoFile() {
    var c =
        send(
            "Origin: http://evil.example\r\nContent-Type: text/plain\r\n",
            "/api/research",
            smuggledEvalCase());
    assertOneResponse(c, 403);
    var multipart =
        send(
            "Content-Type: multipart/form-data; boundary=x\r\n",
            "/api/research",
            smuggledEvalCase());
    assertOneResponse(multipart, 415);
    assertThat(data.resolve("evals")).doesNotExist();
  }
}
