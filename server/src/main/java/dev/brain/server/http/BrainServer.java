package dev.brain.server.http;

import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.ServerSettings;
import dev.brain.server.mcp.BrainMcp;
import dev.brain.server.mcp.BrainTools;
import io.helidon.webserver.WebServer;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;

/**
 * brain's web server: the JSON API, the SSE research endpoints and the web Chat/Search UI on
 * Helidon SE over a {@link Brain}; configured by the {@code server} and {@code chat} sections of
 * {@link BrainConfig}.
 *
 * <pre>{@code
 * try (var server = BrainServer.start(BrainConfig.load(dataDir))) {
 *   System.out.println("open " + server.url());
 *   server.awaitShutdown();
 * }
 * }</pre>
 *
 * <p>The index is opened read-only, so the server runs beside a {@code brain index} that updates
 * it; every request sees the latest commit. Nothing the server does writes to the corpus.
 */
public final class BrainServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(BrainServer.class.getName());

  /** Most open connections (the Chat uses two or three; an SSE stream holds one). */
  static final int MAX_CONNECTIONS = 128;

  private final WarmUp warmUp;
  private final BrainConfig config;
  private final Brain brain;
  private final ModelGate models;
  private final BrainMcp.HttpEndpoint mcp;
  private final ReadDeadlines deadlines;
  private final Activity activity;
  private final WebServer server;
  private final ClientToken clientToken;
  private final String cliSecret;
  private final String urlHost;
  private final Object lock = new Object();
  private boolean closed;

  private BrainServer(
      BrainConfig config,
      Brain brain,
      ModelGate models,
      BrainMcp.HttpEndpoint mcp,
      ReadDeadlines deadlines,
      Activity activity,
      WebServer server,
      ClientToken clientToken,
      String cliSecret,
      String urlHost) {
    this.config = config;
    this.brain = brain;
    this.models = models;
    this.mcp = mcp;
    this.deadlines = deadlines;
    this.activity = activity;
    this.server = server;
    this.clientToken = clientToken;
    this.cliSecret = cliSecret;
    this.urlHost = urlHost;
    this.warmUp = WarmUp.start(url(), clientToken.token());
  }

  /**
   * Opens the brain of {@code config.dataDir()} read-only and starts serving.
   *
   * @throws IllegalArgumentException if the host is not loopback and {@code server.allow-remote} is
   *     false
   * @throws java.nio.file.NoSuchFileException if the data directory holds no index (the message
   *     says to run {@code brain index})
   * @throws IOException if the index cannot be read
   */
  public static BrainServer start(BrainConfig config) throws IOException {
    return start(config, NO_CLI);
  }

  /** Refuses every command: a server started without the CLI's runner. */
  private static final CliRunner NO_CLI =
      (brain, args) -> {
        throw new IllegalArgumentException("this server runs no brain commands");
      };

  /**
   * Like {@link #start(BrainConfig)}, with {@code POST /api/cli} running read-only commands through
   * {@code cli}.
   *
   * @throws IOException if the index cannot be read
   */
  public static BrainServer start(BrainConfig config, CliRunner cli) throws IOException {
    ServerSettings settings = config.server();
    requireAllowedHost(settings);
    InetAddress bound = bindAddress(settings.host());
    HelidonLogs.install();
    var clientToken =
        new ClientToken(settings.token() != null ? settings.token() : ClientToken.randomSecret());
    String cliSecret = CliProof.random();
    String dataDir = CliProof.realPath(config.dataDir());
    Brain brain = Brain.openReadOnly(config);
    // ONNX Runtime, the tokenizer and the model load while the web server starts; the warm-up
    // search takes them over (about a second less before the first search can be answered).
    dev.brain.models.Embedder.preload(config.indexConfig().model());
    var models = new ModelGate(brain);
    BrainMcp.HttpEndpoint mcp = null;
    var deadlines =
        new ReadDeadlines(
            settings.headerTimeout(), settings.readTimeout(), settings.writeTimeout());
    var activity = new Activity();
    try {
      mcp =
          BrainMcp.httpEndpoint(new BrainTools(brain), clientToken::carriedBy, ReadDeadlines::body);
      var endpoint = mcp;
      WebServer server =
          WebServer.builder()
              .host(bound.getHostAddress())
              .port(settings.port())
              // Bodies over the per-endpoint limits are read and refused by the handlers with a
              // 413 the client gets to see; only absurd ones are cut off before routing.
              .maxPayloadSize(hardBodyLimit(settings))
              .directHandlers(ErrorMapping.directHandlers(hardBodyLimit(settings)))
              .shutdownHook(false)
              // Slow, silent or stalled requests have their connection closed: a first request
              // and later headers and bodies by their deadlines, a later request line (or an idle
              // keep-alive connection) by the idle timeout; connections past the cap wait in the
              // backlog. Requests that break the wire rules are refused before routing.
              .protocolsDiscoverServices(false)
              .addConnectionSelector(deadlines.http1(new RequestFraming()))
              .idleConnectionTimeout(settings.idleTimeout())
              .idleConnectionPeriod(idleCheckPeriod(settings.idleTimeout()))
              .maxTcpConnections(MAX_CONNECTIONS)
              .routing(
                  routing ->
                      Routes.register(
                          routing,
                          config,
                          brain,
                          models,
                          endpoint,
                          new Routes.CliEndpoint(clientToken, cli, cliSecret, dataDir),
                          activity))
              .build()
              .start();
      requireListening(server, settings);
      return new BrainServer(
          config,
          brain,
          models,
          mcp,
          deadlines,
          activity,
          server,
          clientToken,
          cliSecret,
          urlHost(bound));
    } catch (RuntimeException e) {
      deadlines.close();
      if (mcp != null) {
        mcp.close();
      }
      brain.close();
      // The process may exit next: not while ONNX Runtime loads on the preload's thread.
      dev.brain.models.Embedder.awaitPreload();
      throw e;
    }
  }

  /**
   * The warm-up's outcome: the statuses of the lanes its search ran ({@code bm25} to {@code used},
   * ...), or empty when it has not ended within {@code wait} or failed. For tests.
   */
  java.util.Optional<Map<String, String>> warmUpLanes(Duration wait) {
    return warmUp.lanes(wait);
  }

  /**
   * Waits for the warm-up searches before the brain closes: the embedder must not be closed, nor
   * the process exit, while ONNX Runtime runs on another thread.
   */
  private void awaitWarmUp() {
    if (!warmUp.await()) {
      LOG.log(Level.WARNING, "the warm-up search did not end within " + WarmUp.GRACE);
    }
  }

  /** Stops a server that did not come up listening and says why. */
  private static void requireListening(WebServer server, ServerSettings settings) {
    if (!server.isRunning() || server.port() < 0) {
      server.stop();
      throw new ServerStartException(
          "cannot listen on "
              + settings.host()
              + ":"
              + settings.port()
              + ": the port is taken or the address is not this machine's; pass --port N, or"
              + " --port 0 for any free port");
    }
  }

  /** How often idle connections are looked for: a fifth of the timeout, at most 5 s. */
  private static Duration idleCheckPeriod(Duration idle) {
    Duration fifth = idle.dividedBy(5);
    Duration period = fifth.compareTo(Duration.ofSeconds(5)) > 0 ? Duration.ofSeconds(5) : fifth;
    return period.isZero() ? Duration.ofMillis(1) : period;
  }

  /**
   * The body size refused before any handler runs: four times the largest endpoint limit. Helidon
   * refuses it without reading the body, which a client still uploading sees as a reset.
   */
  static long hardBodyLimit(ServerSettings config) {
    return 4 * Math.max(config.maxBodyBytes(), config.maxPackBodyBytes());
  }

  private static void requireAllowedHost(ServerSettings config) {
    if (!config.allowRemote() && !config.bindsLoopbackOnly()) {
      throw new IllegalArgumentException(
          "refusing to bind "
              + config.host()
              + ": it is not a loopback address; pass --allow-remote (server.allow-remote: true)"
              + " and set server.token to serve your corpus to the network");
    }
    RequestGuard.requireToken(config);
  }

  /** Moves a read-only brain to the latest commit; a failure keeps the current view. */
  static void refreshQuietly(Brain brain) {
    try {
      brain.refresh();
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "cannot refresh the index view; serving the previous one", e);
    }
  }

  static String version() {
    return dev.brain.server.BuildInfo.current().version();
  }

  /** The port the server listens on (the chosen one when configured with port 0). */
  public int port() {
    return server.port();
  }

  /**
   * The base URL, e.g. {@code http://127.0.0.1:8742/}: always the IP literal of the bound address
   * (loopback for a wildcard), never a host name, so a client connects to the very socket the
   * server listens on and not to another one the name also resolves to ({@code localhost} is also
   * {@code ::1}, where another local user may listen).
   */
  public URI url() {
    return URI.create("http://" + urlHost + ":" + port() + "/");
  }

  /**
   * {@code host} resolved once, here, to the one address the server binds: a host name ({@code
   * localhost}) becomes the IP literal that {@link #url()} then names.
   */
  private static InetAddress bindAddress(String host) {
    try {
      return InetAddress.getByName(host);
    } catch (UnknownHostException e) {
      throw new ServerStartException(
          "cannot resolve server.host '"
              + host
              + "': set it to an IP address of this machine, such as 127.0.0.1");
    }
  }

  /** The host part of {@link #url()} for the bound address. */
  static String urlHost(InetAddress bound) {
    if (bound.isAnyLocalAddress()) {
      return "127.0.0.1"; // all addresses, loopback among them
    }
    if (bound instanceof Inet6Address) {
      String literal = bound.isLoopbackAddress() ? "::1" : bound.getHostAddress();
      int scope = literal.indexOf('%');
      return "[" + (scope < 0 ? literal : literal.substring(0, scope)) + "]";
    }
    return bound.getHostAddress();
  }

  /**
   * The token local clients send as {@code Authorization: Bearer <token>}: {@code server.token}
   * when set, else 32 random bytes in hex chosen at start. {@code POST /api/cli} always requires
   * it; {@code brain serve} advertises it in {@code <data>/server.json}.
   */
  public String clientToken() {
    return clientToken.token();
  }

  /**
   * The link that signs a browser in, {@link #url()} with {@code ?login=<secret>}: a secret chosen
   * at start, valid until the server stops. Opened in a browser it sets a session cookie and leads
   * to the Chat, whose writes (Save as eval case) then work; only the owner may see it ({@code
   * brain serve} prints it and advertises it in {@code <data>/server.json}, mode 600).
   */
  public URI loginUrl() {
    return url().resolve("/?" + ClientToken.LOGIN_PARAMETER + "=" + clientToken.loginSecret());
  }

  /**
   * The secret with which the server proves to CLI clients that it serves their data directory
   * ({@link CliProof}): 64 random hex digits chosen at start; {@code brain serve} advertises it in
   * {@code <data>/server.json} beside the token.
   */
  public String cliSecret() {
    return cliSecret;
  }

  /**
   * How long the server has had no request: zero while one is in flight (a stream until it ends).
   */
  public Duration idle() {
    return activity.idle();
  }

  /** The configuration the server runs with. */
  public BrainConfig config() {
    return config;
  }

  /** Blocks until {@link #close()} is called (from a shutdown hook or another thread). */
  public void awaitShutdown() throws InterruptedException {
    synchronized (lock) {
      while (!closed) {
        lock.wait();
      }
    }
  }

  /** Stops the server (open streams are cut, their runs cancelled) and closes the index. */
  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      lock.notifyAll();
    }
    try {
      server.stop();
      awaitWarmUp();
      deadlines.close();
      mcp.close();
    } finally {
      try {
        brain.close();
      } catch (IOException e) {
        LOG.log(Level.WARNING, "cannot close the index", e);
      }
    }
  }
}
