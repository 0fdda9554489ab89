package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.server.chat.ConversationStore;
import io.helidon.http.Method;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRoute;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code openapi.yaml} against the real server: the spec is served at {@code /openapi.yaml}, every
 * operation it lists is routed (the server answers it with something other than its catch-all 404
 * or a 405), and every route the API services register is in the spec.
 */
class OpenApiSpecTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static BrainServer server;
  private static Set<String> specOperations;

  @BeforeAll
  static void startAndReadSpec() throws Exception {
    var config = BrainConfig.defaults(SampleVaultData.dataDir());
    server = BrainServer.start(config.withServer(config.server().withPort(0)));
    var res = send("GET", "/openapi.yaml");
    assertThat(res.statusCode()).isEqualTo(200);
    Map<String, Object> spec = new Yaml().load(res.body());
    assertThat(spec).containsKey("openapi");
    specOperations = new TreeSet<>();
    @SuppressWarnings("unchecked")
    var paths = (Map<String, Map<String, Object>>) spec.get("paths");
    paths.forEach(
        (path, operations) ->
            operations.keySet().forEach(m -> specOperations.add(m.toUpperCase() + " " + path)));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void everyOperationOfTheSpecIsRouted() throws Exception {
    assertThat(specOperations).contains("GET /api/health", "GET /openapi.yaml");
    for (String operation : specOperations) {
      String method = operation.substring(0, operation.indexOf(' '));
      String path = operation.substring(operation.indexOf(' ') + 1).replace("{id}", "no-such-run");
      var res = send(method, path);
      assertThat(res.statusCode()).as(operation).isNotEqualTo(405);
      assertThat(res.body()).as(operation + ": " + res.body()).doesNotContain("nothing at ");
    }
  }

  @Test
  void everyRouteOfTheApiServicesIsInTheSpec() throws Exception {
    Path data = SampleVaultData.dataDir();
    var config = BrainConfig.defaults(data);
    var routes = new TreeSet<String>();
    try (var brain = Brain.openReadOnly(config)) {
      var models = new ModelGate(brain);
      var limiter = new RunLimiter(config.server().maxConcurrentRuns());
      var token = new ClientToken("t".repeat(32));
      // The prefixes BrainServer registers the services under.
      record("/api", routes, new SearchService(brain));
      record(
          "/api",
          routes,
          new CliService(
              config.server().maxBodyBytes(),
              token,
              brain,
              (b, args) -> new CliRunner.Output(0, "", ""),
              limiter,
              CliProof.random(),
              data.toString()));
      record(
          "/api/research",
          routes,
          new ResearchService(config.server(), brain, models, limiter),
          new TraceService(config.server(), brain, models, limiter, token));
      record("/api/note", routes, new NoteService(config.server(), brain, limiter, token));
      record("/api/agent", routes, new AgentService(config.server(), brain, models, limiter));
      record(
          "/api/conversations",
          routes,
          new ConversationService(
              config.server(),
              new ConversationStore(data, brain.traces().redactor()),
              token,
              data));
    }
    assertThat(routes).hasSizeGreaterThanOrEqualTo(8);
    // HEAD answers wherever GET does (the guard's rule), so the spec describes the GET alone.
    var described =
        routes.stream()
            .filter(r -> !(r.startsWith("HEAD ") && routes.contains("GET " + r.substring(5))))
            .toList();
    assertThat(specOperations).containsAll(described);
  }

  private static void record(String prefix, Set<String> routes, HttpService... services) {
    for (HttpService service : services) {
      service.routing(new Recorder(prefix, routes));
    }
  }

  private static HttpResponse<String> send(String method, String path) throws Exception {
    var body =
        method.equals("POST")
            ? HttpRequest.BodyPublishers.ofString("{}")
            : HttpRequest.BodyPublishers.noBody();
    var request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .header("Content-Type", "application/json")
            .method(method, body)
            .build();
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** Records "METHOD /path" of each route a service registers; never serves anything. */
  private record Recorder(String prefix, Set<String> routes) implements HttpRules {
    private HttpRules add(Method method, String path) {
      String full = path.equals("/") ? prefix : prefix + path;
      routes.add(method.text() + " " + full);
      return this;
    }

    @Override
    public HttpRules get(String path, Handler... handlers) {
      return add(Method.GET, path);
    }

    @Override
    public HttpRules post(String path, Handler... handlers) {
      return add(Method.POST, path);
    }

    @Override
    public HttpRules put(String path, Handler... handlers) {
      return add(Method.PUT, path);
    }

    @Override
    public HttpRules delete(String path, Handler... handlers) {
      return add(Method.DELETE, path);
    }

    @Override
    public HttpRules route(Method method, String path, Handler handler) {
      return add(method, path);
    }

    @Override
    public HttpRules register(HttpService... services) {
      for (HttpService service : services) {
        service.routing(this);
      }
      return this;
    }

    @Override
    public HttpRules register(String path, HttpService... services) {
      for (HttpService service : services) {
        service.routing(new Recorder(prefix + path, routes));
      }
      return this;
    }

    @Override
    public HttpRules route(HttpRoute route) {
      throw new UnsupportedOperationException("record routes by method and path: " + route);
    }
  }
}
