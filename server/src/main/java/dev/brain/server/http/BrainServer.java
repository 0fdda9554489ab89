package dev.brain.server.http;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.research.ResearchRunner;
import dev.brain.research.TraceStore;
import dev.brain.retrieval.Retriever;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.staticcontent.ClasspathHandlerConfig;
import io.helidon.webserver.staticcontent.StaticContentFeature;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * brain's web server: the JSON API, the SSE research endpoints and the web Chat/Search UI on
 * Helidon SE. The module's one public entry type next to {@link ServerConfig}.
 *
 * <pre>{@code
 * try (var server = BrainServer.start(ServerConfig.load(dataDir))) {
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

  private final ServerConfig config;
  private final BrainIndex index;
  private final ModelGate models;
  private final WebServer server;
  private final Object lock = new Object();
  private boolean closed;

  private BrainServer(ServerConfig config, BrainIndex index, ModelGate models, WebServer server) {
    this.config = config;
    this.index = index;
    this.models = models;
    this.server = server;
  }

  /**
   * Opens the index of {@code config.dataDir()} read-only and starts serving.
   *
   * @throws IllegalArgumentException if the host is not loopback and {@link
   *     ServerConfig#allowRemote()} is false
   * @throws java.nio.file.NoSuchFileException if the data directory holds no index (the message
   *     says to run {@code brain index})
   * @throws IOException if the index cannot be read
   */
  public static BrainServer start(ServerConfig config) throws IOException {
    requireAllowedHost(config);
    BrainIndex index = BrainIndex.openReadOnly(IndexConfig.defaults(config.dataDir()), null);
    var models = new ModelGate(config.model(), config.chat());
    try {
      WebServer server =
          WebServer.builder()
              .host(config.host())
              .port(config.port())
              // Bodies over the per-endpoint limits are read and refused by the handlers with a
              // 413 the client gets to see; only absurd ones are cut off before routing.
              .maxPayloadSize(hardBodyLimit(config))
              .directHandlers(ErrorMapping.directHandlers(hardBodyLimit(config)))
              .shutdownHook(false)
              .routing(routing -> routing(routing, config, index, models))
              .build()
              .start();
      return new BrainServer(config, index, models, server);
    } catch (RuntimeException e) {
      models.close();
      index.close();
      throw e;
    }
  }

  /**
   * The body size refused before any handler runs: four times the largest endpoint limit. Helidon
   * refuses it without reading the body, which a client still uploading sees as a reset.
   */
  static long hardBodyLimit(ServerConfig config) {
    return 4 * Math.max(config.maxBodyBytes(), config.maxPackBodyBytes());
  }

  private static void requireAllowedHost(ServerConfig config) {
    if (!config.allowRemote() && !config.bindsLoopbackOnly()) {
      throw new IllegalArgumentException(
          "refusing to bind "
              + config.host()
              + ": it is not a loopback address and the API has no authentication; pass"
              + " --allow-remote (server.allow-remote: true) to serve your corpus to the network");
    }
  }

  private static void routing(
      HttpRouting.Builder routing, ServerConfig config, BrainIndex index, ModelGate models) {
    var retriever = new Retriever(index);
    var runner = new ResearchRunner(index, retriever, new TraceStore(config.dataDir()));
    var limiter = new RunLimiter(config.maxConcurrentRuns());
    ErrorMapping.register(routing);
    routing
        .get("/api/health", (req, res) -> health(res, config, index, retriever, limiter))
        .register("/api", new SearchService(index, retriever))
        .register("/api", new StatusService(index, config.dataDir()))
        .register(
            "/api/research",
            new ResearchService(config, index, retriever, runner, models, limiter),
            new TraceService(config, runner, limiter))
        .get("/search", (req, res) -> res.reroute("/search.html"))
        .register(
            "/",
            StaticContentFeature.createService(
                ClasspathHandlerConfig.builder()
                    .location("web")
                    .welcome("index.html")
                    // Serve straight from the jar; never extract files to a temp folder.
                    .temporaryStorage(t -> t.enabled(false))
                    .build()))
        .any(BrainServer::notFound);
  }

  private static void health(
      ServerResponse res,
      ServerConfig config,
      BrainIndex index,
      Retriever retriever,
      RunLimiter limiter)
      throws IOException {
    refreshQuietly(index);
    var meta = index.metadata();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "ok");
    body.put("version", version());
    Map<String, Object> idx = new LinkedHashMap<>();
    idx.put("records", index.stats().records());
    idx.put("model", meta.modelId());
    idx.put("dimension", meta.dimension());
    idx.put("last_sync_at", meta.lastSyncAt());
    body.put("index", idx);
    body.put("source_types", retriever.sourceTypes());
    body.put("model", config.model());
    body.put("active_runs", limiter.active());
    body.put("max_concurrent_runs", config.maxConcurrentRuns());
    HttpJson.ok(res, body);
  }

  private static void notFound(ServerRequest req, ServerResponse res) {
    throw ApiException.notFound(
        "nothing at " + req.prologue().method().text() + " " + req.path().path(), null);
  }

  /** Moves a read-only index to the latest commit; a failure keeps the current view. */
  static void refreshQuietly(BrainIndex index) {
    try {
      index.refresh();
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "cannot refresh the index view; serving the previous one", e);
    }
  }

  static String version() {
    var v = BrainServer.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  /** The port the server listens on (the chosen one when configured with port 0). */
  public int port() {
    return server.port();
  }

  /** The base URL, e.g. {@code http://127.0.0.1:8742/}. */
  public URI url() {
    String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
    if (host.equals("0.0.0.0") || host.equals("[::]")) {
      host = "127.0.0.1";
    }
    return URI.create("http://" + host + ":" + port() + "/");
  }

  /** The configuration the server runs with. */
  public ServerConfig config() {
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
      models.close();
    } finally {
      try {
        index.close();
      } catch (IOException e) {
        LOG.log(Level.WARNING, "cannot close the index", e);
      }
    }
  }
}
