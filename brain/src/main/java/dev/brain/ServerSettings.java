package dev.brain;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * {@code server.*}: {@code brain serve}.
 *
 * @param host address to bind; default {@code 127.0.0.1} (loopback only)
 * @param port default 8742; 0 picks a free port
 * @param allowRemote whether a non-loopback host may be bound; default false
 * @param token bearer token every request must carry ({@code Authorization: Bearer <token>}, else
 *     401); default none; required, at least {@value #MIN_TOKEN_CHARS} characters, when {@code
 *     allowRemote}; no control character (tab, line break, ...), {@code "} or {@code \}, which
 *     could break the header or a curl config it is sent in. A token outside RFC 6750's {@code
 *     b64token} (letters, digits, {@code - . _ ~ + /}, {@code =} padding) works for other clients,
 *     but brain's CLI sends only a {@code b64token} and otherwise runs in-process. Env {@code
 *     BRAIN_SERVER_TOKEN}
 * @param maxBodyBytes largest JSON body of the research endpoints; default 64 KiB
 * @param maxPackBodyBytes largest body of {@code /api/research/synthesize}; default 4 MiB
 * @param heartbeatInterval SSE heartbeat while a stage is slow; default 5s
 * @param maxConcurrentRuns synthesis and research runs served at once; default 2
 * @param allowedHosts host names a request's {@code Host} may carry besides loopback ones (and a
 *     non-wildcard {@code host}), honoured only with {@code allowRemote}; default none. In the file
 *     a comma-separated list
 * @param headerTimeout longest time from a request line to the end of its headers; a client that
 *     sends partial headers, or drips them, has its connection closed; default 10s
 * @param readTimeout longest time to receive a whole request body once a handler reads it; a short
 *     or dripping body has its connection closed; default 30s
 * @param idleTimeout a keep-alive connection with no request (or an unfinished request line) for
 *     this long is closed; default 60s
 * @param writeTimeout longest time one write of a response (an event of a stream) may wait for a
 *     client that does not read; its connection is then closed (the run goes on and is saved);
 *     default 30s
 * @param autoStart whether the first {@code search}, {@code get}, {@code status} or {@code
 *     research} on a data directory with no server starts one in the background for the calls after
 *     it; default true. Env {@code BRAIN_SERVER_AUTO_START}
 * @param idleExit how long a server started in the background waits without a request before it
 *     exits; default 15m
 */
public record ServerSettings(
    String host,
    int port,
    boolean allowRemote,
    String token,
    long maxBodyBytes,
    long maxPackBodyBytes,
    Duration heartbeatInterval,
    int maxConcurrentRuns,
    List<String> allowedHosts,
    Duration headerTimeout,
    Duration readTimeout,
    Duration idleTimeout,
    Duration writeTimeout,
    boolean autoStart,
    Duration idleExit) {

  /** Shortest accepted {@link #token()}. */
  public static final int MIN_TOKEN_CHARS = 16;

  /** RFC 6750's {@code b64token}: what may follow {@code Bearer } in a header. */
  private static final java.util.regex.Pattern BEARER_TOKEN =
      java.util.regex.Pattern.compile("[A-Za-z0-9._~+/-]+=*");

  /** Default {@link #host()}. */
  public static final String DEFAULT_HOST = "127.0.0.1";

  /** Default {@link #port()}. */
  public static final int DEFAULT_PORT = 8742;

  public ServerSettings {
    host = host == null || host.isBlank() ? DEFAULT_HOST : host.strip();
    token = token == null || token.isBlank() ? null : token.strip();
    if (token != null && !isHeaderSafe(token)) {
      throw new IllegalArgumentException(
          "server.token must not contain control characters (tab, line break, ...), '\"' or '\\':"
              + " it is sent in an 'Authorization: Bearer <token>' header; choose another token");
    }
    allowedHosts =
        allowedHosts == null
            ? List.of()
            : allowedHosts.stream()
                .map(h -> h.strip().toLowerCase(java.util.Locale.ROOT))
                .filter(h -> !h.isEmpty())
                .toList();
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
    }
    if (maxBodyBytes <= 0 || maxPackBodyBytes <= 0 || maxConcurrentRuns <= 0) {
      throw new IllegalArgumentException("body limits and concurrent runs must be positive");
    }
    requirePositive(heartbeatInterval, "heartbeatInterval");
    requirePositive(headerTimeout, "headerTimeout");
    requirePositive(readTimeout, "readTimeout");
    requirePositive(idleTimeout, "idleTimeout");
    requirePositive(writeTimeout, "writeTimeout");
    requirePositive(idleExit, "idleExit");
  }

  /**
   * Whether {@code s} can stand in a header and a quoted curl config value without breaking it: no
   * control character (C0, DEL, C1), no {@code "} and no {@code \}.
   */
  static boolean isHeaderSafe(String s) {
    return s.chars().noneMatch(c -> Character.isISOControl(c) || c == '"' || c == '\\');
  }

  /**
   * Whether {@code s} can be sent as {@code Authorization: Bearer <s>} as it is: RFC 6750's {@code
   * b64token}, so no quote, backslash, space or line break can break a header or a curl config.
   */
  public static boolean isBearerToken(String s) {
    return s != null && BEARER_TOKEN.matcher(s).matches();
  }

  private static void requirePositive(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive");
    }
  }

  /** These settings on another port (0: any free port). */
  public ServerSettings withPort(int value) {
    return copy(c -> c.port = value);
  }

  /** These settings allowing (or not) a non-loopback host. */
  public ServerSettings withAllowRemote(boolean value) {
    return copy(c -> c.allowRemote = value);
  }

  /** These settings with other request body limits. */
  public ServerSettings withBodyLimits(long body, long packBody) {
    return copy(
        c -> {
          c.maxBodyBytes = body;
          c.maxPackBodyBytes = packBody;
        });
  }

  /** These settings with another heartbeat interval. */
  public ServerSettings withHeartbeatInterval(Duration value) {
    return copy(c -> c.heartbeatInterval = value);
  }

  /** These settings with a bearer token (null: none). */
  public ServerSettings withToken(String value) {
    return copy(c -> c.token = value);
  }

  /** These settings with other allowed host names. */
  public ServerSettings withAllowedHosts(List<String> value) {
    return copy(c -> c.allowedHosts = value);
  }

  /** These settings with other timeouts for headers, bodies and idle connections. */
  public ServerSettings withTimeouts(Duration header, Duration read, Duration idle) {
    return copy(
        c -> {
          c.headerTimeout = header;
          c.readTimeout = read;
          c.idleTimeout = idle;
        });
  }

  /** These settings with another deadline for one write to a client that does not read. */
  public ServerSettings withWriteTimeout(Duration value) {
    return copy(c -> c.writeTimeout = value);
  }

  /** These settings with another cap on concurrent runs. */
  public ServerSettings withMaxConcurrentRuns(int value) {
    return copy(c -> c.maxConcurrentRuns = value);
  }

  private ServerSettings copy(java.util.function.Consumer<Copy> change) {
    var copy = new Copy(this);
    change.accept(copy);
    return copy.build();
  }

  /** The fields of a {@code ServerSettings} to change before building a checked copy. */
  private static final class Copy {
    String host;
    int port;
    boolean allowRemote;
    String token;
    long maxBodyBytes;
    long maxPackBodyBytes;
    Duration heartbeatInterval;
    int maxConcurrentRuns;
    List<String> allowedHosts;
    Duration headerTimeout;
    Duration readTimeout;
    Duration idleTimeout;
    Duration writeTimeout;
    boolean autoStart;
    Duration idleExit;

    Copy(ServerSettings s) {
      host = s.host;
      port = s.port;
      allowRemote = s.allowRemote;
      token = s.token;
      maxBodyBytes = s.maxBodyBytes;
      maxPackBodyBytes = s.maxPackBodyBytes;
      heartbeatInterval = s.heartbeatInterval;
      maxConcurrentRuns = s.maxConcurrentRuns;
      allowedHosts = s.allowedHosts;
      headerTimeout = s.headerTimeout;
      readTimeout = s.readTimeout;
      idleTimeout = s.idleTimeout;
      writeTimeout = s.writeTimeout;
      autoStart = s.autoStart;
      idleExit = s.idleExit;
    }

    ServerSettings build() {
      return new ServerSettings(
          host,
          port,
          allowRemote,
          token,
          maxBodyBytes,
          maxPackBodyBytes,
          heartbeatInterval,
          maxConcurrentRuns,
          allowedHosts,
          headerTimeout,
          readTimeout,
          idleTimeout,
          writeTimeout,
          autoStart,
          idleExit);
    }
  }

  /**
   * Whether {@link #host()} is a loopback address ({@code 127.0.0.1}, {@code ::1}, {@code
   * localhost}).
   *
   * @throws IllegalArgumentException if the host name cannot be resolved
   */
  public boolean bindsLoopbackOnly() {
    try {
      return java.net.InetAddress.getByName(host).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      throw new IllegalArgumentException("cannot resolve host '" + host + "'", e);
    }
  }

  @Override
  public String toString() {
    return "Server[host="
        + host
        + ", port="
        + port
        + ", token="
        + (token == null ? "none" : "(set)")
        + "]";
  }

  /** The {@code server.*} values of {@code r}: flag, environment, file or default. */
  static ServerSettings read(ConfigReader r) {
    return new ServerSettings(
        r.string("server.host", "BRAIN_SERVER_HOST", ServerSettings.DEFAULT_HOST),
        r.integer("server.port", "BRAIN_SERVER_PORT", ServerSettings.DEFAULT_PORT, 0, 65_535),
        r.bool("server.allow-remote", "BRAIN_SERVER_ALLOW_REMOTE", false),
        r.secret("server.token", "BRAIN_SERVER_TOKEN"),
        r.integer("server.max-body-bytes", null, 64 * 1024, 1, Integer.MAX_VALUE),
        r.integer("server.max-pack-body-bytes", null, 4 * 1024 * 1024, 1, Integer.MAX_VALUE),
        r.duration("server.heartbeat-interval", null, Duration.ofSeconds(5), Duration.ofMillis(1)),
        r.integer("server.max-concurrent-runs", null, 2, 1, 1000),
        r.list("server.allowed-hosts", "BRAIN_SERVER_ALLOWED_HOSTS"),
        r.duration("server.header-timeout", null, Duration.ofSeconds(10), Duration.ofMillis(1)),
        r.duration("server.read-timeout", null, Duration.ofSeconds(30), Duration.ofMillis(1)),
        r.duration("server.idle-timeout", null, Duration.ofSeconds(60), Duration.ofMillis(1)),
        r.duration("server.write-timeout", null, Duration.ofSeconds(30), Duration.ofMillis(1)),
        r.bool("server.auto-start", "BRAIN_SERVER_AUTO_START", true),
        r.duration("server.idle-exit", null, Duration.ofMinutes(15), Duration.ofMillis(1)));
  }
}
