package dev.brain.server.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * The server's client token as a second lock on every request that writes ({@code POST
 * /api/note/research}, {@code /api/research/eval-cases}, {@code /api/cli}): such a request must
 * carry {@code Authorization: Bearer <token>} even when {@code server.token} is not set. A web page
 * of another site cannot learn the token, so a bug in the {@link RequestGuard} alone never lets it
 * write. Non-browser clients read it from {@code <data>/server.json}; brain's own pages get it from
 * {@code GET /api/session}, which a page of another origin cannot read.
 */
final class ClientToken {
  private static final HeaderName SEC_FETCH_SITE = HeaderNames.create("Sec-Fetch-Site");

  private final String token;
  private final byte[] bytes;

  ClientToken(String token) {
    this.token = token;
    this.bytes = token.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Refuses a request without the token.
   *
   * @throws ApiException 401 {@code unauthorized}
   */
  void require(ServerRequest req, ServerResponse res) {
    if (matches(req.headers().first(HeaderNames.AUTHORIZATION).orElse(""))) {
      return;
    }
    res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"brain\"");
    throw new ApiException(
        Status.UNAUTHORIZED_401,
        "unauthorized",
        "this request writes and needs the server's token as 'Authorization: Bearer <token>'"
            + " (the token of <data>/server.json, or GET /api/session from brain's own pages)",
        "Authorization");
  }

  /**
   * {@code GET /api/session}: the token, for brain's own pages. Answered only to a request from the
   * same origin or from no browser page at all ({@code Sec-Fetch-Site} {@code same-origin}, {@code
   * none} or absent): 403 otherwise.
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
    HttpJson.ok(res, Map.of("token", token));
  }

  private boolean matches(String authorization) {
    if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    byte[] given = authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(given, bytes);
  }
}
