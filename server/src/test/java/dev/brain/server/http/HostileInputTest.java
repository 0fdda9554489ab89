package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.BrainConfig;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests as a hostile client or a hostile web page sends them, against a real server on the
 * sample vault. Every reply of every test is kept; at the end none may have a status of 500 or more
 * and no body may name a Java or Jackson type.
 */
class HostileInputTest {
  private static final String QUESTION = "How often should I backflush the espresso machine?";
  private static final Pattern JAVA_NAME =
      Pattern.compile(
          "\\b(?:java|javax|jdk|sun|com\\.fasterxml|dev\\.brain|io\\.helidon)\\.[a-z]"
              + "|Exception\\b|Jackson|`[A-Za-z.]+`");

  private static BrainServer server;
  private static URI base;
  private static final List<String> SEEN = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    var config = BrainConfig.defaults(SampleVaultData.dataDir());
    server =
        BrainServer.start(
            config.withServer(config.server().withPort(0).withBodyLimits(64 * 1024, 1024 * 1024)));
    base = server.url();
  }

  @AfterAll
  static void noServerErrorsAndNoJavaNames() {
    server.close();
    List<String> bad =
        SEEN.stream()
            .filter(s -> s.startsWith("5") || s.startsWith("-1") || JAVA_NAME.matcher(s).find())
            .toList();
    assertThat(SEEN).hasSizeGreaterThan(40);
    assertThat(bad).as("replies with a 5xx, no answer, or a Java name").isEmpty();
  }

  private static Http.Reply keep(Http.Reply reply, String what) {
    SEEN.add(reply.status() + " " + what + " " + reply.body());
    return reply;
  }

  private static RawHttp.Reply keep(RawHttp.Reply reply, String what) {
    SEEN.add(reply.status() + " " + what + " " + reply.body());
    return reply;
  }

  private static Http.Reply post(String path, String json) {
    return keep(Http.post(base, path, json), "POST " + path + " " + abbreviate(json));
  }

  private static Http.Reply postSse(String path, String json) {
    return keep(Http.send(Sse.post(base.resolve(path), json)), "POST " + path);
  }

  private static Http.Reply postBytes(String path, byte[] body) {
    return keep(
        Http.send(
            HttpRequest.newBuilder(base.resolve(path))
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))),
        "POST " + path + " bytes");
  }

  private static String abbreviate(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }

  private static String code(Http.Reply reply) {
    return reply.error().path("code").asText();
  }

  private static JsonNode pack() {
    var reply = post("/api/research", "{\"question\":\"" + QUESTION + "\",\"limit\":4}");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json();
  }

  // ---------- Host, Origin, Content-Type ----------

  @Test
  void aForeignHostCannotReadTheCorpus() {
    for (String path : List.of("/api/search?q=espresso", "/api/get?key=x", "/", "/api/health")) {
      var reply = keep(RawHttp.get(server.port(), path, "evil.example"), "Host evil " + path);
      assertThat(reply.status()).as(path).isEqualTo(403);
      assertThat(reply.body()).contains("forbidden_host");
    }
  }

  @Test
  void aCrossSitePageCannotStartARun() {
    var origin =
        keep(
            Http.send(
                Sse.post(base.resolve("/api/research/run"), "{\"question\":\"espresso\"}")
                    .header("Origin", "http://evil.example")),
            "Origin evil");
    assertThat(origin.status()).isEqualTo(403);
    var fetchSite =
        keep(
            Http.send(
                Sse.post(base.resolve("/api/research/run"), "{\"question\":\"espresso\"}")
                    .header("Sec-Fetch-Site", "cross-site")),
            "Sec-Fetch-Site");
    assertThat(fetchSite.status()).isEqualTo(403);
  }

  @Test
  void aTextPlainPostIsA415() {
    for (String path : List.of("/api/research", "/api/research/run", "/api/research/synthesize")) {
      var reply =
          keep(
              Http.send(
                  HttpRequest.newBuilder(base.resolve(path))
                      .header("Content-Type", "text/plain")
                      .POST(HttpRequest.BodyPublishers.ofString("{\"question\":\"espresso\"}"))),
              "text/plain " + path);
      assertThat(reply.status()).as(path).isEqualTo(415);
      assertThat(code(reply)).isEqualTo("unsupported_media_type");
    }
  }

  @Test
  void pagesCarryTheSecurityHeaders() {
    var page = keep(Http.get(base, "/"), "GET /");
    assertThat(page.headers().firstValue("content-security-policy")).isPresent();
    assertThat(page.headers().firstValue("x-frame-options")).contains("DENY");
    assertThat(page.headers().firstValue("x-content-type-options")).contains("nosniff");
  }

  // ---------- null and missing fields ----------

  @Test
  void aNullBodyIsA400OnEveryPostEndpoint() {
    for (String path :
        List.of(
            "/api/research",
            "/api/research/run",
            "/api/research/synthesize",
            "/api/research/trace-diff")) {
      for (String body : List.of("null", "[]", "\"question\"", "42", "true")) {
        var reply = postSse(path, body);
        assertThat(reply.status()).as(path + " " + body).isEqualTo(400);
        assertThat(code(reply)).isEqualTo("bad_json");
      }
    }
  }

  @Test
  void nullOrMissingPackFieldsAre400() {
    var nullPack = postSse("/api/research/synthesize", "{\"research_pack\":null}");
    assertThat(nullPack.status()).isEqualTo(400);
    var empty = postSse("/api/research/synthesize", "{\"research_pack\":{}}");
    assertThat(empty.status()).as(empty.body()).isEqualTo(400);
    assertThat(code(empty)).isEqualTo("invalid_pack");
    ObjectNode pack = (ObjectNode) pack();
    pack.putNull("evidence");
    var nullRows =
        postSse("/api/research/synthesize", "{\"research_pack\":" + pack.toString() + "}");
    assertThat(nullRows.status()).as(nullRows.body()).isEqualTo(400);
    assertThat(code(nullRows)).isEqualTo("invalid_pack");
  }

  @Test
  void aPackRowWithoutASourceKeyIsRefusedBeforeTheStream() {
    ObjectNode pack = (ObjectNode) pack();
    ((ObjectNode) pack.path("evidence").get(0)).remove("source_key");
    var reply = postSse("/api/research/synthesize", "{\"research_pack\":" + pack + "}");
    assertThat(reply.status()).as(reply.body()).isEqualTo(400);
    assertThat(code(reply)).isEqualTo("invalid_pack");
    assertThat(reply.error().path("field").asText())
        .isEqualTo("research_pack.evidence[0].source_key");
  }

  // ---------- strict JSON ----------

  @Test
  void wrongTypesAre422NamingTheFieldAndTheExpectedType() {
    record Case(String body, String field, String expected) {}
    for (var c :
        List.of(
            new Case("{\"question\":42}", "question", "a string"),
            new Case("{\"question\":\"espresso\",\"limit\":\"5\"}", "limit", "a whole number"),
            new Case("{\"question\":\"espresso\",\"limit\":5.5}", "limit", "a whole number"),
            new Case("{\"question\":\"espresso\",\"semantic\":\"maybe\"}", "semantic", "true or"),
            new Case("{\"question\":\"espresso\",\"semantic\":1}", "semantic", "true or false"),
            new Case(
                "{\"question\":\"espresso\",\"source_types\":\"pdf\"}", "source_types", "array"),
            new Case("{\"question\":\"espresso\",\"source_types\":[1]}", "source_types", "string"),
            new Case("{\"question\":[\"espresso\"]}", "question", "a string"))) {
      var reply = post("/api/research", c.body());
      assertThat(reply.status()).as(c.body() + " " + reply.body()).isEqualTo(422);
      assertThat(reply.error().path("field").asText()).as(c.body()).startsWith(c.field());
      assertThat(reply.error().path("message").asText()).as(c.body()).contains(c.expected());
    }
  }

  @Test
  void trailingGarbageIsA400() {
    for (String body :
        List.of(
            "{\"question\":\"espresso\"} x",
            "{\"question\":\"espresso\"}{}",
            "{\"question\":\"espresso\"}]")) {
      var reply = post("/api/research", body);
      assertThat(reply.status()).as(body).isEqualTo(400);
      assertThat(code(reply)).isEqualTo("bad_json");
    }
  }

  @Test
  void duplicateFieldsAreA400() {
    var reply = post("/api/research", "{\"question\":\"espresso\",\"question\":\"tea\"}");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.error().path("message").asText()).contains("twice");
  }

  @Test
  void outOfRangeNumbersAre422() {
    for (String limit : List.of("99999999999999999999", "1e400", "-1", "0", "101", "2147483648")) {
      var reply = post("/api/research", "{\"question\":\"espresso\",\"limit\":" + limit + "}");
      assertThat(reply.status()).as(limit + " " + reply.body()).isEqualTo(422);
      assertThat(reply.error().path("field").asText()).isEqualTo("limit");
    }
  }

  @Test
  void overlongUtf8IsRejected() {
    byte[] prefix = "{\"question\":\"espresso ".getBytes(StandardCharsets.UTF_8);
    byte[] suffix = "\"}".getBytes(StandardCharsets.UTF_8);
    for (byte[] bad :
        List.of(
            new byte[] {(byte) 0xC0, (byte) 0xAF}, // overlong '/'
            new byte[] {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, // overlong '/', 3 bytes
            new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // a UTF-16 surrogate
            new byte[] {(byte) 0xFF})) {
      byte[] body = new byte[prefix.length + bad.length + suffix.length];
      System.arraycopy(prefix, 0, body, 0, prefix.length);
      System.arraycopy(bad, 0, body, prefix.length, bad.length);
      System.arraycopy(suffix, 0, body, prefix.length + bad.length, suffix.length);
      var reply = postBytes("/api/research", body);
      assertThat(reply.status()).isEqualTo(400);
      assertThat(reply.error().path("message").asText())
          .contains("UTF-8")
          .contains("at byte offset " + prefix.length);
    }
  }

  @Test
  void fieldsAnEndpointDoesNotReadAreRejected() {
    for (String field : List.of("\"model\":\"extractive\"", "\"max_evidence_chars\":-1")) {
      var reply = post("/api/research", "{\"question\":\"espresso\"," + field + "}");
      assertThat(reply.status()).as(field).isEqualTo(422);
      assertThat(reply.error().path("allowed_values").toString()).contains("question");
    }
    var synth = postSse("/api/research/synthesize", "{\"limit\":3}");
    assertThat(synth.status()).isEqualTo(422);
    assertThat(synth.error().path("field").asText()).isEqualTo("limit");
  }

  @Test
  void aQuestionOverTheLimitIsA422() {
    String long4001 = "espresso ".repeat(445).substring(0, 4001);
    var reply = post("/api/research", "{\"question\":\"" + long4001 + "\"}");
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.error().path("field").asText()).isEqualTo("question");
    var run = postSse("/api/research/run", "{\"question\":\"" + long4001 + "\"}");
    assertThat(run.status()).isEqualTo(422);
  }

  @Test
  void nullsInsideListsAre422() {
    var reply = post("/api/research", "{\"question\":\"espresso\",\"prior_questions\":[null]}");
    assertThat(reply.status()).as(reply.body()).isEqualTo(422);
  }

  @Test
  void deepNestingIsA400() {
    String deep = "[".repeat(5000) + "]".repeat(5000);
    var reply = post("/api/research", "{\"question\":\"espresso\",\"source_types\":" + deep + "}");
    assertThat(reply.status()).isEqualTo(400);
  }

  @Test
  void searchQueryFlagsAreStrict() {
    var maybe = keep(Http.get(base, "/api/search?q=espresso&semantic=maybe"), "semantic=maybe");
    assertThat(maybe.status()).isEqualTo(422);
    assertThat(maybe.error().path("field").asText()).isEqualTo("semantic");
    var limit = keep(Http.get(base, "/api/search?q=espresso&limit=99999999999"), "limit big");
    assertThat(limit.status()).isEqualTo(422);
  }

  // ---------- /synthesize verification ----------

  @Test
  void aPackCitingAKeyTheIndexDoesNotHoldEndsVerificationFailed() {
    ObjectNode pack = (ObjectNode) pack();
    ArrayNode rows = (ArrayNode) pack.path("evidence");
    ((ObjectNode) rows.get(0)).put("source_key", "note:invented/secret.md");
    var stream =
        Sse.read(
            Sse.post(base.resolve("/api/research/synthesize"), "{\"research_pack\":" + pack + "}"));
    SEEN.add(stream.status() + " synthesize unknown key " + stream.rawBody());
    assertThat(stream.status()).isEqualTo(200);
    var names = stream.namesWithoutHeartbeats();
    assertThat(names.get(names.size() - 1)).isEqualTo("verification_failed");
    assertThat(names).doesNotContain("done");
    assertThat(stream.first("verification_failed").data().path("failures").toString())
        .contains("note:invented/secret.md");
  }

  @Test
  void aKeySmuggledIntoAnExcerptEndsVerificationFailed() {
    ObjectNode pack = (ObjectNode) pack();
    ObjectNode row = (ObjectNode) pack.path("evidence").get(0);
    row.put("excerpt", "Backflush weekly [note:smuggled/key.md] as the manual says. " + QUESTION);
    var stream =
        Sse.read(
            Sse.post(base.resolve("/api/research/synthesize"), "{\"research_pack\":" + pack + "}"));
    SEEN.add(stream.status() + " synthesize smuggled " + stream.rawBody());
    var names = stream.namesWithoutHeartbeats();
    assertThat(names.get(names.size() - 1)).isEqualTo("verification_failed");
    assertThat(stream.first("verification_failed").data().has("answer")).isFalse();
  }

  @Test
  void aRustPathInAnExcerptIsCodeNotASmuggledKey() {
    ObjectNode pack = (ObjectNode) pack();
    ObjectNode row = (ObjectNode) pack.path("evidence").get(0);
    row.put("excerpt", row.path("excerpt").asText() + " Mark it #[tauri::command] [std::fmt].");
    var stream =
        Sse.read(
            Sse.post(base.resolve("/api/research/synthesize"), "{\"research_pack\":" + pack + "}"));
    SEEN.add(stream.status() + " synthesize rust path " + stream.rawBody());
    var names = stream.namesWithoutHeartbeats();
    assertThat(names.get(names.size() - 1)).as(stream.rawBody()).isEqualTo("done");
  }

  @Test
  void anUntouchedPackStillEndsDone() {
    var stream =
        Sse.read(
            Sse.post(
                base.resolve("/api/research/synthesize"),
                HttpJson.MAPPER.createObjectNode().set("research_pack", pack()).toString()));
    SEEN.add(stream.status() + " synthesize ok " + stream.rawBody());
    var names = stream.namesWithoutHeartbeats();
    assertThat(names.get(names.size() - 1)).as(stream.rawBody()).isEqualTo("done");
  }

  @Test
  void aPackWithAForgedSourceTypeEndsVerificationFailed() {
    ObjectNode pack = (ObjectNode) pack();
    ObjectNode row = (ObjectNode) pack.path("evidence").get(0);
    String real = row.path("source_type").asText();
    row.put("source_type", real.equals("pdf") ? "note" : "pdf");
    var stream =
        Sse.read(
            Sse.post(base.resolve("/api/research/synthesize"), "{\"research_pack\":" + pack + "}"));
    SEEN.add(stream.status() + " synthesize forged type " + stream.rawBody());
    var names = stream.namesWithoutHeartbeats();
    assertThat(names.get(names.size() - 1)).isEqualTo("verification_failed");
    assertThat(stream.first("verification_failed").data().path("failures").toString())
        .contains("the index holds " + real);
  }

  @Test
  void aPackWhoseQuestionWasSwappedEndsVerificationFailed() {
    ObjectNode pack = (ObjectNode) pack();
    pack.put("question", "When did I run the Berlin Marathon?");
    var stream =
        Sse.read(
            Sse.post(base.resolve("/api/research/synthesize"), "{\"research_pack\":" + pack + "}"));
    SEEN.add(stream.status() + " synthesize swapped question " + stream.rawBody());
    var names = stream.namesWithoutHeartbeats();
    assertThat(names.get(names.size() - 1)).isEqualTo("verification_failed");
    assertThat(stream.first("verification_failed").data().path("failures").toString())
        .contains("does not match its query plan", "'berlin'");
  }

  @Test
  void anUntouchedFollowUpPackStillEndsDone() {
    var reply =
        post(
            "/api/research",
            "{\"question\":\"and with detergent?\",\"prior_questions\":[\""
                + QUESTION
                + "\"],\"limit\":4}");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    var stream =
        Sse.read(
            Sse.post(
                base.resolve("/api/research/synthesize"),
                HttpJson.MAPPER.createObjectNode().set("research_pack", reply.json()).toString()));
    SEEN.add(stream.status() + " synthesize follow-up " + stream.rawBody());
    var names = stream.namesWithoutHeartbeats();
    assertThat(names.get(names.size() - 1)).as(stream.rawBody()).isEqualTo("done");
  }

  // ---------- connections and methods ----------

  @Test
  void aNegativeContentLengthIsA400() {
    var reply =
        keep(
            RawHttp.exchange(
                server.port(),
                "POST /api/research HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: -1",
                "{\"question\":\"espresso\"}".getBytes(StandardCharsets.UTF_8)),
            "Content-Length -1");
    assertThat(reply.status()).as(reply.body()).isEqualTo(400);
  }

  @Test
  void aBadChunkSizeIsA400() {
    for (String size : List.of("zz", "-5", "fffffffffffffffffff")) {
      var reply =
          keep(
              RawHttp.exchange(
                  server.port(),
                  "POST /api/research HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      + "Content-Type: application/json\r\nTransfer-Encoding: chunked",
                  (size + "\r\n{\"question\":\"espresso\"}\r\n0\r\n\r\n")
                      .getBytes(StandardCharsets.UTF_8)),
              "chunk size " + size);
      assertThat(reply.status()).as(size + " " + reply.body()).isEqualTo(400);
    }
  }

  @Test
  void headWorksWhereGetDoes() {
    for (String path :
        List.of(
            "/",
            "/search",
            "/app.css",
            "/api/health",
            "/api/search?q=espresso",
            "/api/research/traces")) {
      var reply =
          keep(
              RawHttp.exchange(
                  server.port(), "HEAD " + path + " HTTP/1.1\r\nHost: 127.0.0.1", new byte[0]),
              "HEAD " + path);
      assertThat(reply.status()).as(path).isEqualTo(200);
      assertThat(reply.body()).as(path).isEmpty();
    }
  }

  @Test
  void aWrongMethodIsA405WithAllow() {
    record Case(String method, String path, String allow) {}
    for (var c :
        List.of(
            new Case("GET", "/api/research", "POST"),
            new Case("DELETE", "/api/research/run", "POST"),
            new Case("PUT", "/api/health", "GET, HEAD"),
            new Case("POST", "/api/search", "GET, HEAD"),
            new Case("DELETE", "/api/research/traces/latest", "GET, HEAD"))) {
      var reply =
          keep(
              Http.send(
                  HttpRequest.newBuilder(base.resolve(c.path()))
                      .header("Content-Type", "application/json")
                      .method(c.method(), HttpRequest.BodyPublishers.ofString("{}"))),
              c.method() + " " + c.path());
      assertThat(reply.status()).as(c.toString()).isEqualTo(405);
      assertThat(reply.headers().firstValue("allow")).as(c.toString()).contains(c.allow());
      assertThat(code(reply)).isEqualTo("method_not_allowed");
    }
    var unknown = keep(Http.get(base, "/api/nothing"), "GET /api/nothing");
    assertThat(unknown.status()).isEqualTo(404);
  }

  @Test
  void aClientLeavingMidUploadIsNoServerError() throws Exception {
    for (int i = 0; i < 5; i++) {
      try (var socket =
          new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), server.port())) {
        socket
            .getOutputStream()
            .write(
                ("POST /api/research HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n"
                        + "{\"question\":\"esp")
                    .getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
      }
    }
    var health = keep(Http.get(base, "/api/health"), "health after disconnects");
    assertThat(health.status()).isEqualTo(200);
  }

  @Test
  void aBodyCutShortByAHalfCloseIsA400() throws Exception {
    try (var socket =
        new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), server.port())) {
      socket.setSoTimeout(10_000);
      socket
          .getOutputStream()
          .write(
              ("POST /api/research HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                      + "{\"question\":")
                  .getBytes(StandardCharsets.UTF_8));
      socket.shutdownOutput();
      String reply = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      SEEN.add(reply.isEmpty() ? "-1 half-close" : reply.substring(9) + " half-close");
      assertThat(reply).startsWith("HTTP/1.1 400").contains("bad_request");
    }
  }

  @Test
  void aNullSourceTypeIsA422() {
    for (String path : List.of("/api/research", "/api/research/run")) {
      var reply = post(path, "{\"question\":\"espresso\",\"source_types\":[null]}");
      assertThat(reply.status()).as(path + ": " + reply.body()).isEqualTo(422);
      assertThat(reply.error().path("field").asText()).isEqualTo("source_types");
    }
  }

  @Test
  void aNulInANotePathIsA422() {
    var reply =
        keep(
            Http.post(
                base, "/api/note/research", "{\"path\":\"a\\u0000b.md\"}", server.clientToken()),
            "NUL path");
    assertThat(reply.status()).as(reply.body()).isEqualTo(422);
    assertThat(reply.error().path("field").asText()).isEqualTo("path");
  }

  @Test
  void aLoneSurrogateIsA400() {
    for (String json :
        List.of(
            "{\"question\":\"espresso \\ud800\"}",
            "{\"question\":\"\\udc00 espresso\"}",
            "{\"question\":\"espresso\",\"prior_questions\":[\"a\\ud83d\"]}")) {
      var reply = post("/api/research", json);
      assertThat(reply.status()).as(json + ": " + reply.body()).isEqualTo(400);
      assertThat(reply.error().path("code").asText()).isEqualTo("bad_json");
    }
    var pair = post("/api/research", "{\"question\":\"espresso \\ud83d\\ude00\"}");
    assertThat(pair.status()).as(pair.body()).isEqualTo(200);
  }

  @Test
  void anOriginOfAnotherSchemeIsRefused() {
    var reply =
        keep(
            Http.send(
                HttpRequest.newBuilder(base.resolve("/api/health"))
                    .header("Origin", "https://127.0.0.1:" + server.port())),
            "Origin https");
    assertThat(reply.status()).isEqualTo(403);
    var own =
        keep(
            Http.send(
                HttpRequest.newBuilder(base.resolve("/api/health"))
                    .header("Origin", "http://127.0.0.1:" + server.port())),
            "Origin own");
    assertThat(own.status()).isEqualTo(200);
  }

  // ---------- large records and traces ----------

  @Test
  void getCapsARecordAtMaxChars() {
    var search = keep(Http.get(base, "/api/search?q=espresso&limit=1"), "search");
    String key = search.json().path("rows").get(0).path("source_key").asText();
    var small = keep(Http.get(base, "/api/get?key=" + Http.enc(key) + "&max_chars=50"), "get");
    assertThat(small.status()).as(small.body()).isEqualTo(200);
    assertThat(small.json().path("record").path("text").asText().length()).isLessThanOrEqualTo(50);
    assertThat(small.json().path("truncated").path("max_chars").asInt()).isEqualTo(50);
    var bad = keep(Http.get(base, "/api/get?key=" + Http.enc(key) + "&max_chars=0"), "get 0");
    assertThat(bad.status()).isEqualTo(422);
  }

  @Test
  void theTraceListHoldsNoAbsolutePaths() {
    var run = postSse("/api/research/run", "{\"question\":\"" + QUESTION + "\"}");
    assertThat(run.status()).isEqualTo(200);
    var list = keep(Http.get(base, "/api/research/traces?limit=5"), "traces");
    assertThat(list.status()).isEqualTo(200);
    list.json()
        .path("traces")
        .forEach(t -> assertThat(t.path("path").asText()).doesNotStartWith("/"));
  }
}
