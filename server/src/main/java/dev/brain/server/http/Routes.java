package dev.brain.server.http;

import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.server.chat.ConversationStore;
import dev.brain.server.mcp.BrainMcp;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.staticcontent.ClasspathHandlerConfig;
import io.helidon.webserver.staticcontent.StaticContentFeature;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@link BrainServer} serves at each path: the guard before every route, the health report,
 * the API services, MCP, the pages by name and the static web UI.
 */
final class Routes {

  private Routes() {}

  /**
   * What {@code POST /api/cli} needs: the token clients must send, the runner, and the secret and
   * data directory (its real path) the server proves itself with ({@link CliProof}).
   */
  record CliEndpoint(ClientToken token, CliRunner runner, String secret, String dataDir) {}

  static void register(
      HttpRouting.Builder routing,
      BrainConfig config,
      Brain brain,
      ModelGate models,
      BrainMcp.HttpEndpoint mcp,
      CliEndpoint cli,
      Activity activity) {
    var server = config.server();
    var limiter = new RunLimiter(server.maxConcurrentRuns());
    ErrorMapping.register(routing);
    routing
        .addFilter(new RequestGuard(server, activity))
        .get("/api/health", (req, res) -> health(res, config, brain, limiter))
        .get("/api/session", cli.token()::session)
        // The login link, /?login=<secret>; without the parameter "/" is the Chat page below.
        .get("/", cli.token()::login)
        // The front page by name: the static content would answer a directory request whose raw
        // path lacks its '/' with a redirect built from that raw path, and cache it for everyone.
        .get("/", (req, res) -> res.reroute("/index.html"))
        .head("/", (req, res) -> res.reroute("/index.html"))
        .head("/api/health", HttpJson.head((req, res) -> health(res, config, brain, limiter)))
        .register("/api", new SearchService(brain))
        .register("/api", new StatusService(brain))
        .register(
            "/api",
            new CliService(
                server.maxBodyBytes(),
                cli.token(),
                brain,
                cli.runner(),
                limiter,
                cli.secret(),
                cli.dataDir()))
        // MCP's Streamable HTTP endpoint, inside this routing so the guard covers it too.
        .register("/mcp", mcp)
        .register(
            "/api/research",
            new ResearchService(server, brain, models, limiter),
            new TraceService(server, brain, models, limiter, cli.token()))
        .register("/api/note", new NoteService(server, brain, limiter, cli.token()))
        .register(
            "/api/conversations",
            new ConversationService(
                server,
                new ConversationStore(config.dataDir(), brain.traces().redactor()),
                cli.token(),
                config.dataDir()))
        .register("/api/agent", new AgentService(server, brain, models, limiter))
        .get("/search", (req, res) -> res.reroute("/search.html"))
        .head("/search", (req, res) -> res.reroute("/search.html"))
        // One page for every record; it reads the (URL-encoded) key from its own path.
        .get("/record/*", (req, res) -> res.reroute("/record.html"))
        .head("/record/*", (req, res) -> res.reroute("/record.html"))
        .get("/lab", (req, res) -> res.reroute("/lab.html"))
        .head("/lab", (req, res) -> res.reroute("/lab.html"))
        .register(
            "/",
            StaticContentFeature.createService(
                ClasspathHandlerConfig.builder()
                    .location("web")
                    .welcome("index.html")
                    // Serve straight from the jar; never extract files to a temp folder.
                    .temporaryStorage(t -> t.enabled(false))
                    .build()))
        .any(RouteMethods::fallback);
  }

  private static void health(
      ServerResponse res, BrainConfig config, Brain brain, RunLimiter limiter) throws IOException {
    BrainServer.refreshQuietly(brain);
    var stats = brain.stats();
    var meta = stats.metadata();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "ok");
    body.put("version", BrainServer.version());
    body.put("pid", ProcessHandle.current().pid()); // clients check a server advertisement by it
    Map<String, Object> idx = new LinkedHashMap<>();
    idx.put("records", stats.records());
    idx.put("model", meta.modelId());
    idx.put("dimension", meta.dimension());
    idx.put("last_sync_at", meta.lastSyncAt());
    body.put("index", idx);
    body.put("source_types", brain.sourceTypes());
    body.put("model", config.chat().model());
    // The Chat shows its agent mode only when a tool-calling controller model is configured.
    String agentModel = config.agent().controllerSpec(config.chat());
    Map<String, Object> agent = new LinkedHashMap<>();
    agent.put("available", agentModel != null);
    agent.put("model", agentModel);
    body.put("agent", agent);
    body.put("active_runs", limiter.active());
    body.put("max_concurrent_runs", config.server().maxConcurrentRuns());
    // The Chat's "don't save this question" switch starts from it.
    body.put("save_traces", config.chat().saveTraces());
    HttpJson.ok(res, body);
  }
}
