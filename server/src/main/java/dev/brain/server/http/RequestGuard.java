package dev.brain.server.http;

import dev.brain.ServerSettings;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one gate every request passes before routing: a personal corpus must not be readable by a web
 * page the user happens to visit, nor by a DNS-rebinding page that points its own name at
 * 127.0.0.1.
 *
 * <ul>
 *   <li>{@code Host} must name a loopback address ({@code localhost}, {@code 127.x.x.x}, {@code
 *       [::1]}) or, with remote access allowed, the bound host or one of {@code
 *       server.allowed-hosts}: 403 {@code forbidden_host};
 *   <li>an {@code Origin} other than the server's own (including {@code null}) and {@code
 *       Sec-Fetch-Site: cross-site}: 403 {@code forbidden_origin};
 *   <li>with {@code server.token} set, {@code /api/} (but {@code /api/cli/hello}, which proves the
 *       server to a CLI client before it sends the token) and {@code /mcp} need {@code
 *       Authorization: Bearer <token>}: 401 {@code unauthorized};
 *   <li>POST bodies must be {@code application/json} (UTF-8): 415 {@code unsupported_media_type}.
 * </ul>
 *
 * Every response carries a Content Security Policy, {@code X-Frame-Options: DENY}, {@code
 * X-Content-Type-Options: nosniff}, {@code Referrer-Policy: no-referrer} and {@code
 * Cross-Origin-Resource-Policy: same-origin}.
 */
final class RequestGuard implements Filter {
  /** Scripts, styles and fetches from the server itself only; no frames, no plugins. */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
          + " frame-ancestors 'none'";

  private static final HeaderName SEC_FETCH_SITE = HeaderNames.create("Sec-Fetch-Site");
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("\\[[0-9a-fA-F:.]+]");

  private final Set<String> allowedHosts;
  private final byte[] token;
  private final Activity activity;

  RequestGuard(ServerSettings config) {
    this(config, new Activity());
  }

  RequestGuard(ServerSettings config, Activity activity) {
    this.activity = activity;
    var hosts = new HashSet<String>();
    if (config.allowRemote()) {
      hosts.addAll(config.allowedHosts());
      String bound = config.host().toLowerCase(Locale.ROOT);
      if (!bound.equals("0.0.0.0") && !bound.equals("::") && !bound.equals("[::]")) {
        hosts.add(bound.contains(":") && !bound.startsWith("[") ? "[" + bound + "]" : bound);
      }
    }
    this.allowedHosts = Set.copyOf(hosts);
    this.token = config.token() == null ? null : config.token().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Refuses a configuration that lets the network in without a token.
   *
   * @throws IllegalArgumentException if remote access is allowed without a token, or the token is
   *     shorter than {@value ServerSettings#MIN_TOKEN_CHARS} characters
   */
  static void requireToken(ServerSettings config) {
    if (config.allowRemote() && config.token() == null) {
      throw new IllegalArgumentException(
          "remote access is allowed but server.token is not set; set server.token in brain.yaml"
              + " (or BRAIN_SERVER_TOKEN) to a secret of at least "
              + ServerSettings.MIN_TOKEN_CHARS
              + " characters, which clients send as 'Authorization: Bearer <token>'");
    }
    if (config.token() != null && config.token().length() < ServerSettings.MIN_TOKEN_CHARS) {
      throw new IllegalArgumentException(
          "server.token is too short: use at least "
              + ServerSettings.MIN_TOKEN_CHARS
              + " characters");
    }
  }

  @Override
  public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
    res.header(HeaderNames.create("Content-Security-Policy"), CONTENT_SECURITY_POLICY);
    res.header(HeaderNames.X_CONTENT_TYPE_OPTIONS, "nosniff");
    res.header(HeaderNames.create("X-Frame-Options"), "DENY");
    res.header(HeaderNames.create("Referrer-Policy"), "no-referrer");
    res.header(HeaderNames.create("Cross-Origin-Resource-Policy"), "same-origin");
    ApiException refusal = check(req);
    if (refusal != null) {
      if (refusal.status().code() == Status.UNAUTHORIZED_401.code()) {
        res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"brain\"");
      }
      // The body, if any, is never read: it could hold a second request that would reach the
      // routes without this request's Host, Origin or token. The connection is closed after the
      // refusal, before anything more is read from it.
      res.header(HeaderNames.CONNECTION, "close");
      ErrorMapping.send(res, refusal);
      throw new CloseConnectionException("refused by the request guard; connection closed");
    }
    activity.enter();
    try {
      chain.proceed();
    } finally {
      try {
        drainUnread(req, res);
      } finally {
        activity.exit();
      }
    }
  }

  /**
   * Reads and drops what a route left of the request body (an early 4xx, a route that takes no
   * body), under the body deadline, so the next request on the connection starts where this one
   * ends. If that fails the connection cannot be reused, and is closed after the response.
   */
  private static void drainUnread(RoutingRequest req, RoutingResponse res) {
    if (req.content().consumed() || ReadDeadlines.bodyBroken()) {
      return;
    }
    try {
      ReadDeadlines.body(
          () -> {
            req.content().consume();
            return null;
          });
    } catch (RuntimeException e) {
      // Too large, too slow, badly framed or gone: nothing more is read from the connection. An
      // error answer still to come closes it itself (the body is marked broken).
      if (res.isSent()) {
        throw new CloseConnectionException("the request body could not be read to its end", e);
      }
    }
  }

  /** The refusal of a request, or {@code null} when it may pass. */
  private ApiException check(RoutingRequest req) {
    var headers = req.headers();
    String host = headers.first(HeaderNames.HOST).orElse("");
    if (!hostAllowed(host)) {
      return new ApiException(
          Status.FORBIDDEN_403,
          "forbidden_host",
          "requests must name this server by a loopback address (localhost, 127.0.0.1, [::1])"
              + (allowedHosts.isEmpty() ? "" : " or a host in server.allowed-hosts")
              + "; the Host header named another host",
          "Host");
    }
    Optional<String> origin = headers.first(HeaderNames.ORIGIN);
    if (origin.isPresent() && !sameOrigin(origin.get(), host)) {
      return forbiddenOrigin("the request came from another origin (a web page of another site)");
    }
    String site = headers.first(SEC_FETCH_SITE).orElse("");
    if (site.equalsIgnoreCase("cross-site")) {
      return forbiddenOrigin("the request came from a page of another site (Sec-Fetch-Site)");
    }
    String length = headers.first(HeaderNames.CONTENT_LENGTH).orElse(null);
    if (length != null && !length.strip().matches("\\d{1,18}")) {
      return new ApiException(
          Status.BAD_REQUEST_400,
          "bad_request",
          "Content-Length must be a non-negative whole number, got '" + length.strip() + "'",
          "Content-Length");
    }
    String path = req.path().path();
    // The CLI's hello is how a client checks the server before it sends any token (CliProof).
    boolean needsToken =
        (path.startsWith("/api/") || path.equals("/mcp")) && !path.equals("/api/cli/hello");
    if (token != null && needsToken) {
      if (!tokenMatches(headers.first(HeaderNames.AUTHORIZATION).orElse(""))) {
        return new ApiException(
            Status.UNAUTHORIZED_401,
            "unauthorized",
            "send the server's token as 'Authorization: Bearer <token>' (server.token)",
            "Authorization");
      }
    }
    if (req.prologue().method().equals(Method.POST) && !isJson(headers.contentType())) {
      return new ApiException(
          Status.UNSUPPORTED_MEDIA_TYPE_415,
          "unsupported_media_type",
          "POST bodies must be sent as 'Content-Type: application/json' (UTF-8)",
          "Content-Type");
    }
    return null;
  }

  private static ApiException forbiddenOrigin(String why) {
    return new ApiException(
        Status.FORBIDDEN_403,
        "forbidden_origin",
        why + "; brain answers only its own pages and non-browser clients",
        "Origin");
  }

  private static boolean isJson(Optional<io.helidon.http.HttpMediaType> type) {
    if (type.isEmpty()) {
      return false;
    }
    var media = type.get();
    if (!media.mediaType().type().equalsIgnoreCase("application")
        || !media.mediaType().subtype().equalsIgnoreCase("json")) {
      return false;
    }
    return media.charset().map(c -> c.equalsIgnoreCase("utf-8")).orElse(true);
  }

  private boolean tokenMatches(String authorization) {
    if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    byte[] given = authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(given, token);
  }

  /**
   * Whether an {@code Origin} is this server's own as the client named it in {@code Host}: the
   * server speaks plain HTTP, so an {@code https://} origin is another origin.
   */
  private static boolean sameOrigin(String origin, String host) {
    String o = origin.strip().toLowerCase(Locale.ROOT);
    String h = host.strip().toLowerCase(Locale.ROOT);
    return !h.isEmpty() && o.equals("http://" + h);
  }

  boolean hostAllowed(String hostHeader) {
    String name = hostName(hostHeader.strip().toLowerCase(Locale.ROOT));
    if (name.isEmpty()) {
      return false;
    }
    if (name.endsWith(".") && name.length() > 1) {
      name = name.substring(0, name.length() - 1);
    }
    return name.equals("localhost") || isLoopbackLiteral(name) || allowedHosts.contains(name);
  }

  /** The host part of a {@code Host} header: {@code [::1]:8742} gives {@code [::1]}. */
  private static String hostName(String header) {
    if (header.startsWith("[")) {
      int end = header.indexOf(']');
      return end < 0 ? "" : header.substring(0, end + 1);
    }
    int colon = header.indexOf(':');
    return colon < 0 ? header : header.substring(0, colon);
  }

  /** An IP literal on loopback; names are never resolved (no DNS lookups on request input). */
  private static boolean isLoopbackLiteral(String name) {
    if (IPV4.matcher(name).matches()) {
      for (String octet : name.split("\\.")) {
        if (Integer.parseInt(octet) > 255) {
          return false;
        }
      }
      return name.startsWith("127.");
    }
    if (!IPV6.matcher(name).matches()) {
      return false;
    }
    try {
      // A bracketed literal with colons is parsed, never looked up.
      return InetAddress.getByName(name.substring(1, name.length() - 1)).isLoopbackAddress();
    } catch (UnknownHostException | IllegalArgumentException e) {
      return false;
    }
  }
}
