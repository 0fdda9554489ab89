package dev.brain.server.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.index.IndexStatus;
import dev.brain.index.RecordDetail;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.run.RunResult;
import dev.brain.research.synthesis.AnswerStatus;
import dev.brain.research.synthesis.AnswerWarning;
import dev.brain.research.synthesis.Citation;
import dev.brain.research.synthesis.PreparedSynthesis;
import dev.brain.research.synthesis.SynthesisOptions;
import dev.brain.research.synthesis.Truncation;
import dev.brain.retrieval.InvalidSearchException;
import dev.brain.retrieval.SearchResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code brain serve} running on the same data directory, found through its {@link
 * ServerAdvertisement}: {@code search}, {@code get}, {@code status} and {@code research} (when no
 * chat model takes part) ask it instead of opening the index and the model in a new process, which
 * is what makes them fast. The answers are the same records the in-process code returns, printed
 * the same way.
 *
 * <p>An advertisement is used only when its process is alive, its URL is on this machine and the
 * server there answers the health check with the advertised process id to the advertised token;
 * anything else (a killed server, a port taken over, a wrong token) is stale and ignored.
 */
final class RunningServer {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(3);
  private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(5);

  private static final ObjectMapper MAPPER =
      dev.brain.research.Json.newMapper()
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final ServerAdvertisement ad;

  private RunningServer(ServerAdvertisement ad) {
    this.ad = ad;
  }

  /** A status and body. */
  private record Response(int statusCode, String body) {}

  /** The live server advertised in {@code dataDir}; empty when none is, or it is stale. */
  static Optional<RunningServer> find(Path dataDir) {
    var ad = ServerAdvertisement.read(dataDir);
    if (ad.isEmpty()
        || !ProcessHandle.of(ad.get().pid()).map(ProcessHandle::isAlive).orElse(false)
        || !onThisMachine(ad.get().url())) {
      return Optional.empty();
    }
    var server = new RunningServer(ad.get());
    return server.answersAsAdvertised() ? Optional.of(server) : Optional.empty();
  }

  private static boolean onThisMachine(String url) {
    try {
      String host = URI.create(url).getHost();
      return host != null
          && (host.equals("127.0.0.1") || host.equals("localhost") || host.equals("[::1]"));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private boolean answersAsAdvertised() {
    try {
      var res = send("GET", "api/health", null, HEALTH_TIMEOUT);
      return res.statusCode() == 200
          && MAPPER.readTree(res.body()).path("pid").asLong(-1) == ad.pid();
    } catch (IOException e) {
      return false; // refused, timed out, or not brain's JSON
    }
  }

  /** The base URL of the server. */
  String url() {
    return ad.url();
  }

  /** {@code GET /api/search} with these query parameters (name, value pairs). */
  SearchResult search(List<Map.Entry<String, String>> params) throws IOException {
    var res = send("GET", "api/search?" + query(params), null, REQUEST_TIMEOUT);
    if (res.statusCode() != 200) {
      throw failure(res);
    }
    return MAPPER.readValue(res.body(), SearchResult.class);
  }

  /** {@code GET /api/get?key=KEY}; empty when the server has no such record. */
  Optional<RecordDetail> get(String key) throws IOException {
    var res =
        send("GET", "api/get?" + query(List.of(Map.entry("key", key))), null, REQUEST_TIMEOUT);
    if (res.statusCode() == 404) {
      return Optional.empty();
    }
    if (res.statusCode() != 200) {
      throw failure(res);
    }
    return Optional.of(MAPPER.readValue(res.body(), RecordDetail.class));
  }

  /** {@code POST /api/research}: the research pack of a question (no synthesis, no trace). */
  ResearchPack pack(Map<String, Object> body) throws IOException {
    var res = send("POST", "api/research", MAPPER.writeValueAsString(body), REQUEST_TIMEOUT);
    if (res.statusCode() != 200) {
      throw failure(res);
    }
    return MAPPER.readValue(res.body(), ResearchPack.class);
  }

  /**
   * {@code POST /api/research/run} asked for as one JSON document: the whole run (plan, retrieval,
   * judge, extractive answer, verification, trace) as the in-process runner returns it.
   */
  RunResult run(Map<String, Object> body) throws IOException {
    var res = send("POST", "api/research/run", MAPPER.writeValueAsString(body), REQUEST_TIMEOUT);
    if (res.statusCode() != 200) {
      throw failure(res);
    }
    return runResult(res.body());
  }

  /**
   * A run read back from its JSON. The synthesis input's JSON leaves out the pack it was built from
   * (and the prompt texts), so it is rebuilt around the run's final pack.
   */
  static RunResult runResult(String json) throws IOException {
    JsonNode tree = MAPPER.readTree(json);
    JsonNode preparedJson = tree instanceof ObjectNode o ? o.remove("prepared_synthesis") : null;
    RunResult r = MAPPER.treeToValue(tree, RunResult.class);
    if (preparedJson == null || preparedJson.isNull() || r.pack() == null) {
      return r;
    }
    var p = MAPPER.treeToValue(preparedJson, PreparedJson.class);
    var prepared =
        new PreparedSynthesis(
            p.schemaVersion(),
            p.question(),
            p.promptVersion(),
            p.answerStatus(),
            p.answerWarnings() == null ? List.of() : p.answerWarnings(),
            p.truncation(),
            p.citableSources() == null ? List.of() : p.citableSources(),
            null,
            null,
            List.of(),
            r.pack());
    return new RunResult(
        r.schemaVersion(),
        r.runId(),
        r.question(),
        r.retrievalQuestion(),
        r.stopReason(),
        r.status(),
        r.synthesis(),
        r.verification(),
        r.failure(),
        r.judge(),
        r.finalJudge(),
        r.merge(),
        r.pinned(),
        r.inspections(),
        r.timings(),
        r.metrics(),
        r.events(),
        r.tracePath(),
        r.traceError(),
        r.pack(),
        prepared);
  }

  /** The JSON fields of a {@link PreparedSynthesis}. */
  private record PreparedJson(
      @JsonProperty("schema_version") String schemaVersion,
      String question,
      @JsonProperty("prompt_version") String promptVersion,
      @JsonProperty("answer_status") AnswerStatus answerStatus,
      @JsonProperty("answer_warnings") List<AnswerWarning> answerWarnings,
      Truncation truncation,
      @JsonProperty("citable_sources") List<Citation> citableSources) {}

  /** {@code GET /api/status}: the collections' status as the server sees it. */
  IndexStatus status() throws IOException {
    var res = send("GET", "api/status", null, REQUEST_TIMEOUT);
    if (res.statusCode() != 200) {
      throw failure(res);
    }
    return MAPPER.readValue(res.body(), IndexStatus.class);
  }

  /**
   * The {@code POST /api/research/run} body of a traced or untraced run of {@code question} with
   * options, answered by {@code model} (the extractive synthesizer).
   */
  static Map<String, Object> runBody(
      String question,
      ResearchOptions options,
      SynthesisOptions synthesis,
      String model,
      boolean trace) {
    var body = packBody(question, options);
    body.put("model", model);
    body.put("max_evidence_chars", synthesis.maxEvidenceChars());
    body.put("trace", trace);
    body.put("surface", "cli");
    return body;
  }

  /** The {@code POST /api/research} body asking for the pack of {@code question} with options. */
  static Map<String, Object> packBody(String question, ResearchOptions options) {
    var body = new java.util.LinkedHashMap<String, Object>();
    body.put("question", question);
    body.put("source_types", options.sourceTypes());
    body.put("limit", options.limit());
    body.put("max_chars_per_doc", options.maxCharsPerDoc());
    body.put("include_related", options.includeRelated());
    body.put("related_limit", options.relatedLimit());
    if (options.includeTopicBrief() != null) {
      body.put("include_topic_brief", options.includeTopicBrief());
    }
    body.put("semantic", options.semantic());
    return body;
  }

  /**
   * One request. {@link HttpURLConnection} rather than {@code java.net.http.HttpClient}: the latter
   * sets up TLS (trust store, crypto providers) even for plain HTTP, which costs a short-lived CLI
   * process more than the whole search on the server.
   */
  private Response send(String method, String path, String jsonBody, Duration timeout)
      throws IOException {
    var connection =
        (HttpURLConnection)
            URI.create(ad.url()).resolve(path).toURL().openConnection(Proxy.NO_PROXY);
    try {
      connection.setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
      connection.setReadTimeout((int) timeout.toMillis());
      connection.setRequestMethod(method);
      connection.setRequestProperty("Authorization", "Bearer " + ad.token());
      connection.setRequestProperty("Accept", "application/json");
      if (jsonBody != null) {
        connection.setDoOutput(true);
        connection.setRequestProperty("Content-Type", "application/json");
        try (OutputStream out = connection.getOutputStream()) {
          out.write(jsonBody.getBytes(StandardCharsets.UTF_8));
        }
      }
      int status = connection.getResponseCode();
      InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
      String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return new Response(status, body);
    } catch (ConnectException | SocketTimeoutException e) {
      throw new IOException(
          "the server at " + ad.url() + " stopped answering; run again, or pass --local", e);
    } finally {
      connection.disconnect();
    }
  }

  private static String query(List<Map.Entry<String, String>> params) {
    var out = new StringBuilder();
    for (var p : params) {
      if (!out.isEmpty()) {
        out.append('&');
      }
      out.append(URLEncoder.encode(p.getKey(), StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(p.getValue(), StandardCharsets.UTF_8));
    }
    return out.toString();
  }

  /** The server's structured error as the exception the in-process command would throw. */
  private RuntimeException failure(Response res) {
    String message;
    String field = null;
    try {
      JsonNode error = MAPPER.readTree(res.body()).path("error");
      message = error.path("message").asText("HTTP " + res.statusCode());
      field = error.path("field").isTextual() ? error.path("field").asText() : null;
    } catch (IOException e) {
      message = "HTTP " + res.statusCode();
    }
    if (res.statusCode() == 400 || res.statusCode() == 422) {
      return new InvalidSearchException(field == null ? "request" : field, message, List.of());
    }
    return new IllegalStateException("brain serve at " + ad.url() + ": " + message);
  }
}
