package dev.brain.server.http;

import dev.brain.models.chat.ChatConfig;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How {@link BrainServer} runs. Start from {@link #defaults(Path)} or {@link #load(Path)} and
 * change fields with the {@code with...} methods.
 *
 * @param dataDir the data directory; the index is read from {@code <dataDir>/index}
 * @param host the address to bind; default {@value #DEFAULT_HOST} (loopback only)
 * @param port the port; default {@value #DEFAULT_PORT}; 0 picks a free port (tests)
 * @param allowRemote whether a non-loopback {@code host} may be bound; default false. Needs a
 *     {@code token}: without one anyone who can reach the port could read the corpus
 * @param maxBodyBytes largest JSON request body of {@code POST /api/research} and {@code
 *     /api/research/run}; default {@value #DEFAULT_MAX_BODY_BYTES} (64 KiB: a question, filters, up
 *     to 8 prior questions and 24 pinned keys fit many times over). Larger bodies get 413
 * @param maxPackBodyBytes largest body of {@code POST /api/research/synthesize}, which carries a
 *     whole research pack; default {@value #DEFAULT_MAX_PACK_BODY_BYTES} (4 MiB: a pack of 50 rows
 *     of 4,000 characters is about 250 KB). Larger bodies get 413
 * @param heartbeatInterval how often a {@code heartbeat} event is sent while an SSE stream waits
 *     for a slow stage; default 5 seconds. A failed heartbeat write is how a client disconnect is
 *     noticed while the model thinks
 * @param maxConcurrentRuns synthesis and research runs served at once; default {@value
 *     #DEFAULT_MAX_CONCURRENT_RUNS}. Beyond it requests get 503 with {@code Retry-After}
 * @param model the chat model for synthesis: {@code extractive} (built in, the default), {@code
 *     ollama/<model>} or {@code openai/<model>}
 * @param chat where the chat model servers are and whether hosted ones may be used; default {@link
 *     ChatConfig#fromEnvironment} ({@code BRAIN_OLLAMA_URL}, {@code BRAIN_OPENAI_URL}, ...)
 * @param token a bearer token every {@code /api/} request must carry ({@code Authorization: Bearer
 *     <token>}, else 401); default none. Required (at least {@value #MIN_TOKEN_CHARS} characters)
 *     whenever {@code allowRemote} lets a non-loopback host be bound
 * @param allowedHosts host names (besides loopback ones and a non-wildcard {@code host}) that
 *     requests may name in their {@code Host} header; default none. Used only with {@code
 *     allowRemote}: it is the DNS-rebinding defence, so list the names clients really use
 */
public record ServerConfig(
    Path dataDir,
    String host,
    int port,
    boolean allowRemote,
    long maxBodyBytes,
    long maxPackBodyBytes,
    Duration heartbeatInterval,
    int maxConcurrentRuns,
    String model,
    ChatConfig chat,
    String token,
    List<String> allowedHosts) {

  /** Default {@link #host()}: loopback only. */
  public static final String DEFAULT_HOST = "127.0.0.1";

  /** Default {@link #port()}. */
  public static final int DEFAULT_PORT = 8742;

  /** Default {@link #maxBodyBytes()}: 64 KiB. */
  public static final long DEFAULT_MAX_BODY_BYTES = 64 * 1024;

  /** Default {@link #maxPackBodyBytes()}: 4 MiB. */
  public static final long DEFAULT_MAX_PACK_BODY_BYTES = 4 * 1024 * 1024;

  /** Default {@link #heartbeatInterval()}. */
  public static final Duration DEFAULT_HEARTBEAT_INTERVAL = Duration.ofSeconds(5);

  /** Default {@link #maxConcurrentRuns()}: two, one per core of a small machine. */
  public static final int DEFAULT_MAX_CONCURRENT_RUNS = 2;

  /** Default {@link #model()}: the built-in extractive synthesizer. */
  public static final String DEFAULT_MODEL = "extractive";

  public ServerConfig {
    Objects.requireNonNull(dataDir, "dataDir");
    host = host == null || host.isBlank() ? DEFAULT_HOST : host.strip();
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
    }
    requirePositive("maxBodyBytes", maxBodyBytes);
    requirePositive("maxPackBodyBytes", maxPackBodyBytes);
    heartbeatInterval = heartbeatInterval == null ? DEFAULT_HEARTBEAT_INTERVAL : heartbeatInterval;
    if (heartbeatInterval.isNegative() || heartbeatInterval.isZero()) {
      throw new IllegalArgumentException("heartbeatInterval must be positive");
    }
    requirePositive("maxConcurrentRuns", maxConcurrentRuns);
    model = model == null || model.isBlank() ? DEFAULT_MODEL : model.strip();
    chat = chat == null ? ChatConfig.fromEnvironment(System.getenv()) : chat;
    token = token == null || token.isBlank() ? null : token.strip();
    allowedHosts =
        allowedHosts == null
            ? List.of()
            : allowedHosts.stream()
                .map(h -> h.strip().toLowerCase(Locale.ROOT))
                .filter(h -> !h.isEmpty())
                .toList();
  }

  /** Shortest accepted {@link #token()}. */
  public static final int MIN_TOKEN_CHARS = 16;

  /** Every default, for the data directory {@code dataDir}. */
  public static ServerConfig defaults(Path dataDir) {
    return new ServerConfig(
        dataDir,
        DEFAULT_HOST,
        DEFAULT_PORT,
        false,
        DEFAULT_MAX_BODY_BYTES,
        DEFAULT_MAX_PACK_BODY_BYTES,
        DEFAULT_HEARTBEAT_INTERVAL,
        DEFAULT_MAX_CONCURRENT_RUNS,
        DEFAULT_MODEL,
        null,
        null,
        List.of());
  }

  /**
   * The defaults overridden by the {@code server} section of {@code <dataDir>/brain.yaml} (if the
   * file exists) and by environment variables, which win ({@code SERVER_PORT=9000}). Keys: {@code
   * host}, {@code port}, {@code allow-remote}, {@code max-body-bytes}, {@code max-pack-body-bytes},
   * {@code heartbeat-interval-ms}, {@code max-concurrent-runs}, {@code model}, {@code token},
   * {@code allowed-hosts}.
   */
  public static ServerConfig load(Path dataDir) {
    var builder = Config.builder().disableSystemPropertiesSource();
    builder.addSource(ConfigSources.environmentVariables());
    Path yaml = dataDir.resolve("brain.yaml");
    if (Files.isRegularFile(yaml)) {
      builder.addSource(ConfigSources.file(yaml));
    }
    return from(builder.build().get("server"), dataDir);
  }

  /** The defaults overridden by the keys of a {@code server} config node (see {@link #load}). */
  static ServerConfig from(Config server, Path dataDir) {
    var d = defaults(dataDir);
    return new ServerConfig(
        dataDir,
        server.get("host").asString().orElse(d.host()),
        server.get("port").asInt().orElse(d.port()),
        server.get("allow-remote").asBoolean().orElse(d.allowRemote()),
        server.get("max-body-bytes").asLong().orElse(d.maxBodyBytes()),
        server.get("max-pack-body-bytes").asLong().orElse(d.maxPackBodyBytes()),
        server
            .get("heartbeat-interval-ms")
            .asLong()
            .map(Duration::ofMillis)
            .orElse(d.heartbeatInterval()),
        server.get("max-concurrent-runs").asInt().orElse(d.maxConcurrentRuns()),
        server.get("model").asString().orElse(d.model()),
        d.chat(),
        server.get("token").asString().orElse(d.token()),
        server.get("allowed-hosts").asList(String.class).orElse(d.allowedHosts()));
  }

  /** This configuration serving another data directory. */
  public ServerConfig withDataDir(Path value) {
    return new ServerConfig(
        value,
        host,
        port,
        allowRemote,
        maxBodyBytes,
        maxPackBodyBytes,
        heartbeatInterval,
        maxConcurrentRuns,
        model,
        chat,
        token,
        allowedHosts);
  }

  /** This configuration binding another host. */
  public ServerConfig withHost(String value) {
    return new ServerConfig(
        dataDir,
        value,
        port,
        allowRemote,
        maxBodyBytes,
        maxPackBodyBytes,
        heartbeatInterval,
        maxConcurrentRuns,
        model,
        chat,
        token,
        allowedHosts);
  }

  /** This configuration on another port (0: any free port). */
  public ServerConfig withPort(int value) {
    return new ServerConfig(
        dataDir,
        host,
        value,
        allowRemote,
        maxBodyBytes,
        maxPackBodyBytes,
        heartbeatInterval,
        maxConcurrentRuns,
        model,
        chat,
        token,
        allowedHosts);
  }

  /** This configuration allowing (or not) a non-loopback host. */
  public ServerConfig withAllowRemote(boolean value) {
    return new ServerConfig(
        dataDir,
        host,
        port,
        value,
        maxBodyBytes,
        maxPackBodyBytes,
        heartbeatInterval,
        maxConcurrentRuns,
        model,
        chat,
        token,
        allowedHosts);
  }

  /** This configuration with other request body limits. */
  public ServerConfig withBodyLimits(long body, long packBody) {
    return new ServerConfig(
        dataDir,
        host,
        port,
        allowRemote,
        body,
        packBody,
        heartbeatInterval,
        maxConcurrentRuns,
        model,
        chat,
        token,
        allowedHosts);
  }

  /** This configuration with another heartbeat interval. */
  public ServerConfig withHeartbeatInterval(Duration value) {
    return new ServerConfig(
        dataDir,
        host,
        port,
        allowRemote,
        maxBodyBytes,
        maxPackBodyBytes,
        value,
        maxConcurrentRuns,
        model,
        chat,
        token,
        allowedHosts);
  }

  /** This configuration with another cap on concurrent runs. */
  public ServerConfig withMaxConcurrentRuns(int value) {
    return new ServerConfig(
        dataDir,
        host,
        port,
        allowRemote,
        maxBodyBytes,
        maxPackBodyBytes,
        heartbeatInterval,
        value,
        model,
        chat,
        token,
        allowedHosts);
  }

  /** This configuration with another chat model id. */
  public ServerConfig withModel(String value) {
    return new ServerConfig(
        dataDir,
        host,
        port,
        allowRemote,
        maxBodyBytes,
        maxPackBodyBytes,
        heartbeatInterval,
        maxConcurrentRuns,
        value,
        chat,
        token,
        allowedHosts);
  }

  /** This configuration with other chat-model server settings. */
  public ServerConfig withChat(ChatConfig value) {
    return new ServerConfig(
        dataDir,
        host,
        port,
        allowRemote,
        maxBodyBytes,
        maxPackBodyBytes,
        heartbeatInterval,
        maxConcurrentRuns,
        model,
        value,
        token,
        allowedHosts);
  }

  /** This configuration with another bearer token ({@code null}: none). */
  public ServerConfig withToken(String value) {
    return new ServerConfig(
        dataDir,
        host,
        port,
        allowRemote,
        maxBodyBytes,
        maxPackBodyBytes,
        heartbeatInterval,
        maxConcurrentRuns,
        model,
        chat,
        value,
        allowedHosts);
  }

  /** This configuration with other allowed {@code Host} names for remote access. */
  public ServerConfig withAllowedHosts(List<String> value) {
    return new ServerConfig(
        dataDir,
        host,
        port,
        allowRemote,
        maxBodyBytes,
        maxPackBodyBytes,
        heartbeatInterval,
        maxConcurrentRuns,
        model,
        chat,
        token,
        value);
  }

  /**
   * Whether {@link #host()} is a loopback address ({@code 127.0.0.1}, {@code ::1}, {@code
   * localhost}).
   *
   * @throws IllegalArgumentException if the host name cannot be resolved
   */
  public boolean bindsLoopbackOnly() {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("cannot resolve host '" + host + "'", e);
    }
  }

  private static void requirePositive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
  }
}
