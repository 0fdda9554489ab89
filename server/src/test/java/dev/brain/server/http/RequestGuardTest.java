package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.BrainConfig;
import dev.brain.ServerSettings;
import io.helidon.webserver.WebServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The guard in front of every route: Host, Origin, token, Content-Type, security headers. */
class RequestGuardTest {
  private static final String TOKEN = "s3cret-token-of-32-characters-xx";

  @TempDir Path data;
  private WebServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop();
    }
  }

  private URI start(ServerSettings config) {
    server =
        WebServer.builder()
            .port(0)
            .routing(
                routing -> {
                  ErrorMapping.register(routing);
                  routing
                      .addFilter(new RequestGuard(config))
                      .get("/api/data", (req, res) -> HttpJson.ok(res, Map.of("secret", "corpus")))
                      .post(
                          "/api/echo",
                          (req, res) ->
                              HttpJson.ok(
                                  res, HttpJson.read(req, 1000, "POST /api/echo", Map.class)))
                      .get("/", (req, res) -> res.send("<html></html>"));
                })
            .build()
            .start();
    return URI.create("http://127.0.0.1:" + server.port() + "/");
  }

  private URI start() {
    return start(BrainConfig.defaults(data).server().withPort(0));
  }

  @Test
  void aForeignHostIsRefusedSoADnsRebindingPageCannotReadTheCorpus() {
    start();
    var reply = RawHttp.get(server.port(), "/api/data", "evil.example");
    assertThat(reply.status()).isEqualTo(403);
    assertThat(reply.body()).contains("\"code\":\"forbidden_host\"").doesNotContain("corpus");
    assertThat(RawHttp.get(server.port(), "/api/data", "evil.example:" + server.port()).status())
        .isEqualTo(403);
    assertThat(RawHttp.get(server.port(), "/api/data", "127.0.0.1.evil.example").status())
        .isEqualTo(403);
  }

  @Test
  void loopbackHostsPass() {
    start();
    for (String host : List.of("localhost", "127.0.0.1", "[::1]", "LOCALHOST", "127.0.0.2")) {
      var reply = RawHttp.get(server.port(), "/api/data", host + ":" + server.port());
      assertThat(reply.status()).as(host).isEqualTo(200);
    }
  }

  @Test
  void aConfiguredHostPassesOnlyWithRemoteAccess() {
    start(
        BrainConfig.defaults(data)
            .server()
            .withPort(0)
            .withAllowRemote(true)
            .withToken(TOKEN)
            .withAllowedHosts(List.of("brain.lan")));
    var head = "GET /api/data HTTP/1.1\r\nHost: brain.lan:8742\r\nAuthorization: Bearer " + TOKEN;
    assertThat(RawHttp.exchange(server.port(), head, new byte[0]).status()).isEqualTo(200);
    assertThat(RawHttp.get(server.port(), "/api/data", "other.lan").status()).isEqualTo(403);
  }

  @Test
  void aCrossOriginRequestIsRefused() {
    URI base = start();
    var reply =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/echo"))
                .header("Content-Type", "application/json")
                .header("Origin", "http://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString("{\"a\":1}")));
    assertThat(reply.status()).isEqualTo(403);
    assertThat(reply.error().path("code").asText()).isEqualTo("forbidden_origin");
    var nullOrigin =
        Http.send(HttpRequest.newBuilder(base.resolve("/api/data")).header("Origin", "null"));
    assertThat(nullOrigin.status()).isEqualTo(403);
  }

  @Test
  void secFetchSiteCrossSiteIsRefused() {
    URI base = start();
    var reply =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/data"))
                .header("Sec-Fetch-Site", "cross-site"));
    assertThat(reply.status()).isEqualTo(403);
    assertThat(reply.error().path("field").asText()).isEqualTo("Origin");
  }

  @Test
  void theServersOwnOriginPasses() {
    URI base = start();
    var reply =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/echo"))
                .header("Content-Type", "application/json")
                .header("Origin", "http://127.0.0.1:" + server.port())
                .header("Sec-Fetch-Site", "same-origin")
                .POST(HttpRequest.BodyPublishers.ofString("{\"a\":1}")));
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
  }

  @Test
  void aPostThatIsNotJsonIsA415() {
    URI base = start();
    for (String type : List.of("text/plain", "application/x-www-form-urlencoded", "")) {
      var request =
          HttpRequest.newBuilder(base.resolve("/api/echo"))
              .POST(HttpRequest.BodyPublishers.ofString("{\"a\":1}"));
      if (!type.isEmpty()) {
        request.header("Content-Type", type);
      }
      var reply = Http.send(request);
      assertThat(reply.status()).as(type).isEqualTo(415);
      assertThat(reply.error().path("code").asText()).isEqualTo("unsupported_media_type");
    }
    var latin1 =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/echo"))
                .header("Content-Type", "application/json; charset=iso-8859-1")
                .POST(HttpRequest.BodyPublishers.ofString("{\"a\":1}")));
    assertThat(latin1.status()).isEqualTo(415);
    var utf8 =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/echo"))
                .header("Content-Type", "application/json; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString("{\"a\":1}")));
    assertThat(utf8.status()).isEqualTo(200);
  }

  @Test
  void withATokenTheApiNeedsTheBearerTokenAndPagesDoNot() {
    URI base = start(BrainConfig.defaults(data).server().withPort(0).withToken(TOKEN));
    var none = Http.get(base, "/api/data");
    assertThat(none.status()).isEqualTo(401);
    assertThat(none.headers().firstValue("www-authenticate").orElse("")).startsWith("Bearer");
    assertThat(none.error().path("code").asText()).isEqualTo("unauthorized");
    var wrong =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/data"))
                .header("Authorization", "Bearer " + TOKEN + "x"));
    assertThat(wrong.status()).isEqualTo(401);
    var right =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/data"))
                .header("Authorization", "Bearer " + TOKEN));
    assertThat(right.status()).isEqualTo(200);
    assertThat(Http.get(base, "/").status()).isEqualTo(200);
  }

  @Test
  void aPassphraseTokenOutsideTheBearerCharactersIsAcceptedAsItIsSent() {
    for (String passphrase : new String[] {"Tr0ub4dor&3!horse", "correct horse battery staple"}) {
      URI base = start(BrainConfig.defaults(data).server().withPort(0).withToken(passphrase));
      String head =
          "GET /api/data HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\nAuthorization: ";
      var right = RawHttp.exchange(server.port(), head + "Bearer " + passphrase, new byte[0]);
      assertThat(right.status()).as(passphrase + ": " + right.body()).isEqualTo(200);
      var wrong = RawHttp.exchange(server.port(), head + "Bearer " + passphrase + "x", new byte[0]);
      assertThat(wrong.status()).as(passphrase).isEqualTo(401);
      assertThat(base).isNotNull();
      server.stop();
      server = null;
    }
  }

  @Test
  void remoteAccessWithoutATokenIsRefusedAtStart() {
    var remote = BrainConfig.defaults(data).server().withAllowRemote(true);
    assertThatThrownBy(() -> RequestGuard.requireToken(remote))
        .hasMessageContaining("server.token");
    assertThatThrownBy(() -> RequestGuard.requireToken(remote.withToken("short")))
        .hasMessageContaining("too short");
    RequestGuard.requireToken(remote.withToken(TOKEN));
  }

  @Test
  void everyResponseCarriesTheSecurityHeaders() {
    URI base = start();
    for (var reply : List.of(Http.get(base, "/"), Http.get(base, "/api/data"))) {
      var headers = reply.headers();
      assertThat(headers.firstValue("x-frame-options")).contains("DENY");
      assertThat(headers.firstValue("x-content-type-options")).contains("nosniff");
      assertThat(headers.firstValue("content-security-policy").orElse(""))
          .contains("default-src 'self'", "frame-ancestors 'none'");
    }
    var refused = RawHttp.get(server.port(), "/", "evil.example");
    assertThat(refused.header("x-frame-options")).isEqualTo("DENY");
  }
}
