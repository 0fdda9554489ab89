package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Who gets the server's write token from {@code GET /api/session}: only a browser signed in through
 * the login link {@code brain serve} prints. Any other client that reaches the loopback port
 * (another user of the machine, say) gets a 401 and no token, and a wrong link signs nothing in.
 */
class SessionLoginTest {
  private static BrainServer server;
  private static URI base;

  @BeforeAll
  static void start() throws Exception {
    server = BrainServer.start(SampleVaultData.onAnyPort(SampleVaultData.dataDir()));
    base = server.url();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static Http.Reply session(String cookie, String site) {
    var request = HttpRequest.newBuilder(base.resolve("/api/session"));
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    if (site != null) {
      request.header("Sec-Fetch-Site", site);
    }
    return Http.send(request.GET());
  }

  private static String cookieName() {
    return "brain_session_" + server.port();
  }

  @Test
  void theSessionWithoutTheLoginCookieIsA401WithoutTheToken() {
    for (String site : new String[] {null, "none", "same-origin"}) {
      var reply = session(null, site);
      assertThat(reply.status()).as(reply.body()).isEqualTo(401);
      assertThat(reply.contentType()).startsWith("application/json");
      assertThat(reply.error().path("code").asText()).isEqualTo("not_signed_in");
      assertThat(reply.error().path("message").asText())
          .contains("the link 'brain serve' printed", "?login=", "server.json");
      assertThat(reply.body()).doesNotContain(server.clientToken());
    }
  }

  @Test
  void aGuessedOrEmptySessionCookieIsA401() {
    for (String cookie :
        new String[] {cookieName() + "=" + "0".repeat(64), cookieName() + "=", "brain_session=x"}) {
      var reply = session(cookie, "same-origin");
      assertThat(reply.status()).as(cookie).isEqualTo(401);
      assertThat(reply.body()).doesNotContain(server.clientToken());
    }
  }

  @Test
  void theLoginLinkSetsAStrictHttpOnlyCookieAndRedirectsToTheCleanPage() {
    assertThat(server.loginUrl().toString())
        .matches("http://127\\.0\\.0\\.1:\\d+/\\?login=[0-9a-f]{64}");
    var login = Http.send(HttpRequest.newBuilder(server.loginUrl()).GET());
    assertThat(login.status()).isEqualTo(303);
    assertThat(login.headers().firstValue("location")).hasValue("/");
    assertThat(login.headers().firstValue("cache-control")).hasValue("no-store");
    String setCookie = login.headers().firstValue("set-cookie").orElseThrow();
    assertThat(setCookie)
        .startsWith(cookieName() + "=")
        .contains("HttpOnly", "SameSite=Strict", "Path=/")
        .doesNotContain("Secure")
        .doesNotContain(server.clientToken());

    var reply = session(setCookie.substring(0, setCookie.indexOf(';')), "same-origin");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(reply.json().path("token").asText()).isEqualTo(server.clientToken());
  }

  @Test
  void aSignedInBrowserStillGetsNoTokenForAPageOfAnotherSite() {
    var reply = session(Http.signIn(server), "same-site");
    assertThat(reply.status()).isEqualTo(403);
    assertThat(reply.body()).doesNotContain(server.clientToken());
  }

  @Test
  void aWrongLoginSecretIsRefusedAndSetsNoCookie() {
    String right = server.loginUrl().getQuery().substring("login=".length());
    String wrong = (right.charAt(0) == 'a' ? "b" : "a") + right.substring(1);
    for (String secret : new String[] {wrong, "", right.substring(1)}) {
      var reply = Http.get(base, "/?login=" + secret);
      assertThat(reply.status()).as(secret).isEqualTo(403);
      assertThat(reply.error().path("code").asText()).isEqualTo("invalid_login");
      assertThat(reply.error().path("message").asText()).contains("the link 'brain serve' printed");
      assertThat(reply.headers().firstValue("set-cookie")).isEmpty();
    }
  }

  @Test
  void theSessionCookieOfAnotherServerDoesNotSignIn() throws Exception {
    try (var other = BrainServer.start(SampleVaultData.onAnyPort(SampleVaultData.dataDir()))) {
      String theirs = Http.signIn(other);
      String value = theirs.substring(theirs.indexOf('=') + 1);
      assertThat(session(cookieName() + "=" + value, "same-origin").status()).isEqualTo(401);
    }
  }

  @Test
  void thePageWithoutALoginIsTheChatAndSignsNothingIn() {
    var page = Http.get(base, "/");
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.contentType()).startsWith("text/html");
    assertThat(page.headers().firstValue("set-cookie")).isEmpty();
  }
}
