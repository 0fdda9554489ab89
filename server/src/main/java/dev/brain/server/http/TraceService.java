package dev.brain.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.Brain;
import dev.brain.ServerSettings;
import dev.brain.evals.CaseProposal;
import dev.brain.evals.EvalException;
import dev.brain.evals.ResearchEvalCase;
import dev.brain.evals.TraceDiff;
import dev.brain.models.chat.ChatModel;
import dev.brain.research.run.RunListener;
import dev.brain.research.run.RunResult;
import dev.brain.research.run.RunSettings;
import dev.brain.research.trace.TraceStore;
import dev.brain.research.trace.TraceSummary;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The saved research runs, the Harness Lab's API: {@code GET /api/research/traces} (newest first),
 * {@code GET /api/research/traces/{run_id}} ({@code run.json}, or {@code run.md} with {@code
 * ?format=md}), {@code POST /api/research/trace-diff} (runs a saved question again with its options
 * and models, optionally without the planner, and compares evidence, answer and citations as {@code
 * brain trace diff} does) and {@code POST /api/research/eval-cases} (appends the draft eval case of
 * a saved run, as {@code brain eval propose} drafts it, to a case file under {@code
 * <data>/evals/cases}). Only run ids and bare file names reach the disk: never paths.
 */
final class TraceService implements HttpService {
  /** Default and largest {@code limit} of the listing. */
  static final int DEFAULT_LIMIT = 50;

  static final int MAX_LIMIT = 500;

  /** The case file the Harness Lab promotes to when the request names none. */
  static final String DEFAULT_CASE_FILE = "lab";

  private final ServerSettings config;
  private final Brain brain;
  private final TraceStore traces;
  private final ModelGate models;
  private final RunLimiter limiter;
  private final ClientToken token;

  TraceService(
      ServerSettings config, Brain brain, ModelGate models, RunLimiter limiter, ClientToken token) {
    this.config = config;
    this.token = token;
    this.brain = brain;
    this.traces = brain.traces();
    this.models = models;
    this.limiter = limiter;
  }

  /**
   * The body of {@code POST /api/research/trace-diff}.
   *
   * @param runId the run id (or a unique prefix)
   * @param planner {@code false} to re-run with the deterministic plan only; default: the saved
   *     run's planner
   */
  record DiffRequest(String runId, Boolean planner) {}

  /**
   * The body of {@code POST /api/research/eval-cases}.
   *
   * @param runId the run id (or a unique prefix)
   * @param includeAnswer require the answer's first lines too (default false)
   * @param file the case file's name under {@code <data>/evals/cases}, without {@code .jsonl}
   *     (default {@value #DEFAULT_CASE_FILE})
   */
  record PromoteRequest(String runId, Boolean includeAnswer, String file) {}

  @Override
  public void routing(HttpRules rules) {
    rules
        .get("/traces", this::list)
        .head("/traces", HttpJson.head(this::list))
        .get("/traces/{id}", this::show)
        .head("/traces/{id}", HttpJson.head(this::show))
        .post("/trace-diff", this::diff)
        .post("/eval-cases", this::promote);
  }

  private void list(ServerRequest req, ServerResponse res) throws IOException {
    SearchService.rejectUnknown(req.query(), Set.of("limit"));
    int limit = req.query().first("limit").map(v -> parseLimit(v)).orElse(DEFAULT_LIMIT);
    List<TraceSummary> all = traces.list();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("count", all.size());
    body.put("traces", all.subList(0, Math.min(limit, all.size())));
    HttpJson.ok(res, body);
  }

  private static int parseLimit(String value) {
    try {
      int n = Integer.parseInt(value.strip());
      if (n >= 1 && n <= MAX_LIMIT) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw ApiException.invalidOption(
        "limit must be a whole number from 1 to " + MAX_LIMIT + ", got '" + value + "'", "limit");
  }

  private void show(ServerRequest req, ServerResponse res) throws IOException {
    SearchService.rejectUnknown(req.query(), Set.of("format"));
    Path dir = find(req.path().pathParameters().get("id"));
    String format = req.query().first("format").orElse("json");
    switch (format) {
      case "json" -> HttpJson.ok(res, readable(dir));
      case "md" -> {
        readable(dir); // refuses a version this brain does not read
        res.header(HeaderNames.CONTENT_TYPE, "text/markdown; charset=utf-8");
        res.send(traces.readMarkdown(dir));
      }
      default ->
          throw ApiException.invalidOption(
              "unknown format '" + format + "'", "format", List.of("json", "md"));
    }
  }

  private void diff(ServerRequest req, ServerResponse res) throws IOException {
    var request =
        HttpJson.read(
            req, config.maxBodyBytes(), "POST /api/research/trace-diff", DiffRequest.class);
    Path dir = find(request.runId());
    JsonNode trace = readable(dir);
    if ("agent".equals(trace.path("kind").asText())) {
      throw new ApiException(
          Status.CONFLICT_409,
          "not_a_research_run",
          "run " + dir.getFileName() + " is an agent run; trace-diff re-runs research runs only",
          "run_id");
    }
    RunSettings saved = RunSettings.fromJson(trace.path("settings"));
    // The saved run's models, checked to be reachable before anything runs (503 otherwise).
    ChatModel answerer = model(saved.synthesisModel());
    ChatModel planner =
        Boolean.FALSE.equals(request.planner()) ? null : model(saved.plannerModel());
    RunResult now;
    var slot = limiter.acquire();
    try {
      BrainServer.refreshQuietly(brain);
      // The same re-run as `brain trace diff`: saved options, budgets and continuity, no trace.
      now =
          brain.run(
              TraceDiff.rerun(trace).withPlanner(planner).withModel(answerer), RunListener.NONE);
    } finally {
      slot.close();
    }
    HttpJson.ok(res, TraceDiff.of(trace, now));
  }

  /** The chat model of a saved run's model id; {@code null} for none or the extractive one. */
  private ChatModel model(String spec) {
    return spec == null ? null : models.resolve(spec).model();
  }

  private void promote(ServerRequest req, ServerResponse res) throws IOException {
    token.require(req, res);
    var request =
        HttpJson.read(
            req, config.maxBodyBytes(), "POST /api/research/eval-cases", PromoteRequest.class);
    String name = caseFileName(request.file());
    JsonNode trace = readable(find(request.runId()));
    Path file =
        brain.config().dataDir().resolve(CaseProposal.CASES_DIRECTORY).resolve(name + ".jsonl");
    ResearchEvalCase draft;
    try {
      draft = CaseProposal.fromTrace(trace, Boolean.TRUE.equals(request.includeAnswer()));
    } catch (EvalException e) {
      throw new ApiException(Status.CONFLICT_409, "unreadable_trace", e.getMessage(), "run_id");
    }
    try {
      // One promotion at a time, so two clicks cannot both pass the duplicate-id check.
      synchronized (this) {
        CaseProposal.append(draft, file);
      }
    } catch (EvalException e) {
      throw new ApiException(Status.CONFLICT_409, "case_exists", e.getMessage(), "run_id");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("case_id", draft.id());
    body.put("file", CaseProposal.CASES_DIRECTORY + "/" + name + ".jsonl");
    body.put("path", file.toString());
    body.put("reviewed", false);
    body.put("case", HttpJson.MAPPER.readTree(CaseProposal.line(draft)));
    HttpJson.send(res, Status.CREATED_201, body);
  }

  /** A case file name: letters, digits, {@code -} and {@code _}; 422 otherwise. */
  static String caseFileName(String file) {
    if (file == null || file.isBlank()) {
      return DEFAULT_CASE_FILE;
    }
    String name = file.strip();
    if (name.endsWith(".jsonl")) {
      name = name.substring(0, name.length() - ".jsonl".length());
    }
    if (!name.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,63}")) {
      throw ApiException.invalidOption(
          "file must be a plain name (letters, digits, - and _, up to 64), got '"
              + file
              + "'; the case file is <data>/"
              + CaseProposal.CASES_DIRECTORY
              + "/<file>.jsonl",
          "file");
    }
    return name;
  }

  /** The {@code run.json} of a trace; 409 with the reason when it cannot be read. */
  private JsonNode readable(Path dir) {
    try {
      return traces.readJson(dir);
    } catch (IOException | RuntimeException e) {
      String reason = TraceStore.unreadable(e);
      throw new ApiException(
          Status.CONFLICT_409,
          "unreadable_trace",
          "the saved run " + dir.getFileName() + " cannot be read (" + reason + ")",
          "run_id");
    }
  }

  /** The trace directory of a run id or unique prefix; 404 when there is none. */
  private Path find(String ref) throws IOException {
    // Run ids look like 20261122T034512.123Z-0123456789ab; a prefix of one is fine, a path never.
    if (ref == null
        || !ref.strip().matches("[0-9A-Za-z][0-9A-Za-z.-]{0,40}")
        || ref.contains("..")) {
      throw ApiException.badRequest(
          "missing_parameter",
          "give a run id (or a unique prefix of one) as listed by GET /api/research/traces",
          "run_id");
    }
    try {
      return traces
          .find(ref.strip())
          .orElseThrow(() -> ApiException.notFound("no saved run '" + ref.strip() + "'", "run_id"));
    } catch (IllegalArgumentException ambiguous) {
      throw ApiException.invalidOption(ambiguous.getMessage(), "run_id");
    }
  }

  private static List<String> strings(JsonNode array, String field) {
    var out = new ArrayList<String>();
    array.forEach(n -> out.add(n.path(field).asText()));
    return out;
  }
}
