package dev.brain.server.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.SetCookie;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;

/**
 * The server's client token as a second lock on every request that writes ({@code POST
 * /api/note/research}, {@code /api/research/eval-cases}, {@code /api/cli}, and a writing MCP tool
 * over {@code POST /mcp}): such a request must carry {@code Authorization: Bearer <token>} even
 * when {@code server.token} is not set. The token goes only to a client that proves it is the
 * owner: non-browser clients read it from {@code <data>/server.json} (mode 600); a browser signs in
 * through the login link {@code brain serve} prints ({@code /?login=<secret>}, a secret of its own
 * chosen at start, also in {@code server.json}), which sets an HttpOnly, SameSite=Strict session
 * cookie, and brain's pages then get the token from {@code GET /api/session}. Another local user
 * can reach the loopback port but not the owner's files, so gets neither; a web page of another
 * site can read neither answer, so a bug in the {@link RequestGuard} alone never lets it write.
 */
final class ClientToken {
  private static final HeaderName SEC_FETCH_SITE = HeaderNames.create("Sec-Fetch-Site");

  /** The query parameter of the login link. */
  static final String LOGIN_PARAMETER = "login";

  /** How a browser gets in, for the messages of refusals. */
  private static final String HOW_TO_SIGN_IN =
      "open the link 'brain serve' printed (http://127.0.0.1:<port>/?login=...; also login_url in"
          + " <data>/server.json, readable only by you) in this browser";

  private final String token;
  private final byte[] tokenBytes;
  private final String loginSecret;
  private final byte[] session;

  /** The lock of {@code token}, with a new login secret and session id. */
  ClientToken(String token) {
    this.token = token;
    this.tokenBytes = token.getBytes(StandardCharsets.UTF_8);
    this.loginSecret = randomSecret();
    this.session = randomSecret().getBytes(StandardCharsets.UTF_8);
  }

  /** 32 random bytes in hex. */
  static String randomSecret() {
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    return HexFormat.of().formatHex(secret);
  }

  /** The token itself. */
  String token() {
    return token;
  }

  /** The secret of the login link, {@code /?login=<secret>}: valid as long as the server runs. */
  String loginSecret() {
    return loginSecret;
  }

  /** Whether {@code req} carries the token as {@code Authorization: Bearer <token>}. */
  boolean carriedBy(ServerRequest req) {
    return matches(req.headers().first(HeaderNames.AUTHORIZATION).orElse(""));
  }

  /**
   * Refuses a request without the token.
   *
   * @throws ApiException 401 {@code unauthorized}
   */
  void require(ServerRequest req, ServerResponse res) {
    if (carriedBy(req)) {
      return;
    }
    res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"brain\"");
    throw new ApiException(
        Status.UNAUTHORIZED_401,
        "unauthorized",
        "this request writes and needs the server's token as 'Authorization: Bearer <token>':"
            + " the token of <data>/server.json; from brain's own pages, "
            + HOW_TO_SIGN_IN,
        "Authorization");
  }

  /**
   * {@code GET /?login=<secret>}: the right secret signs the browser in (a session cookie) and
   * redirects to the clean {@code /}, so the secret stays neither in the address bar nor in a
   * bookmark of the page; a wrong one is a 403 and sets nothing. Without the parameter the request
   * goes on to the page.
   */
  void login(ServerRequest req, ServerResponse res) {
    var given = req.query().first(LOGIN_PARAMETER);
    if (given.isEmpty()) {
      res.next();
      return;
    }
    if (!MessageDigest.isEqual(
        given.get().getBytes(StandardCharsets.UTF_8),
        loginSecret.getBytes(StandardCharsets.UTF_8))) {
      throw new ApiException(
          Status.FORBIDDEN_403,
          "invalid_login",
          "this login link is not the running server's (a new one is made each time the server"
              + " starts): "
              + HOW_TO_SIGN_IN,
          LOGIN_PARAMETER);
    }
    res.headers()
        .addCookie(
            SetCookie.builder(cookieName(req), new String(session, StandardCharsets.UTF_8))
                .path("/")
                .httpOnly(true)
                .sameSite(SetCookie.SameSite.STRICT)
                .build());
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    res.header(HeaderNames.LOCATION, "/");
    res.status(Status.SEE_OTHER_303).send();
  }

  /**
   * {@code GET /api/session}: the token, for brain's own pages in a browser signed in by the login
   * link (its session cookie): 401 without the cookie; 403 for a request from another site or
   * another port ({@code Sec-Fetch-Site} other than {@code same-origin} or {@code none}).
   */
  void session(ServerRequest req, ServerResponse res) {
    String site = req.headers().first(SEC_FETCH_SITE).orElse("none");
    if (!site.equalsIgnoreCase("same-origin") && !site.equalsIgnoreCase("none")) {
      throw new ApiException(
          Status.FORBIDDEN_403,
          "forbidden_origin",
          "the session token is given only to brain's own pages",
          "Sec-Fetch-Site");
    }
    String cookie = req.headers().cookies().first(cookieName(req)).orElse("");
    if (!MessageDigest.isEqual(cookie.getBytes(StandardCharsets.UTF_8), session)) {
      res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"brain\"");
      throw new ApiException(
          Status.UNAUTHORIZED_401,
          "not_signed_in",
          "this browser is not signed in, so brain's pages can read but not write (Save as eval"
              + " case): "
              + HOW_TO_SIGN_IN,
          "Cookie");
    }
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    HttpJson.ok(res, Map.of("token", token));
  }

  /**
   * The session cookie's name, with the server's port in it: a browser sends a host's cookies to
   * every port of it, and two brain servers on one machine must not replace each other's.
   */
  private static String cookieName(ServerRequest req) {
    return "brain_session_" + req.localPeer().port();
  }

  private boolean matches(String authorization) {
    if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    byte[] given = authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(given, tokenBytes);
  }
}
