package dev.brain.server.http;

import dev.brain.Brain;
import dev.brain.ResearchRequest;
import dev.brain.ServerSettings;
import dev.brain.research.Researcher;
import dev.brain.research.run.RunListener;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.synthesis.PreparedSynthesis;
import dev.brain.research.synthesis.SynthesisResult;
import dev.brain.retrieval.InvalidSearchException;
import io.helidon.common.media.type.MediaTypes;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The research endpoints: {@code POST /api/research} (the pack as JSON), {@code POST
 * /api/research/synthesize} (an answer from a posted pack, as SSE) and {@code POST
 * /api/research/run} (the research runner: plan, retrieval, inspection, judge, retry or expansion,
 * answer, verification, trace — as SSE). Every check that can fail — body, options, run slot, model
 * — runs before a stream opens, so failures are plain HTTP errors; after that, failures are a
 * terminal {@code error} event.
 */
final class ResearchService implements HttpService {
  private final ServerSettings config;
  private final Brain brain;
  private final ModelGate models;
  private final RunLimiter limiter;

  ResearchService(ServerSettings config, Brain brain, ModelGate models, RunLimiter limiter) {
    this.config = config;
    this.brain = brain;
    this.models = models;
    this.limiter = limiter;
  }

  @Override
  public void routing(HttpRules rules) {
    rules.post("/", this::pack).post("/synthesize", this::synthesize).post("/run", this::run);
  }

  private void pack(ServerRequest req, ServerResponse res) throws IOException {
    var request =
        HttpJson.read(req, config.maxBodyBytes(), "POST /api/research", ResearchRequest.class)
            .validateForPack();
    BrainServer.refreshQuietly(brain);
    HttpJson.ok(res, brain.pack(request).pack());
  }

  private void synthesize(ServerRequest req, ServerResponse res) throws IOException {
    var request = readPackRequest(req);
    if (request.researchPack() == null) {
      throw ApiException.badRequest(
          "invalid_pack",
          "research_pack is missing; send the whole body POST /api/research returned",
          "research_pack");
    }
    PackCheck.requireWellFormed(request.researchPack());
    if (request.question() != null
        && request.question().length() > ResearchRequest.MAX_QUESTION_CHARS) {
      throw ApiException.invalidOption(
          "the question is longer than " + ResearchRequest.MAX_QUESTION_CHARS + " characters",
          "question");
    }
    PreparedSynthesis prepared = prepare(request);
    requireEventStream(req);
    BrainServer.refreshQuietly(brain);
    List<String> packProblems = PackCheck.problems(request.researchPack(), brain);
    try (var slot = limiter.acquire()) {
      ModelGate.Resolved model = models.resolve(request.model());
      EventStream.serve(
          res,
          config.heartbeatInterval(),
          events -> {
            SynthesisResult result =
                SynthesisStream.answer(brain, prepared, model, request.options(), events);
            if (result != null) {
              var verification = brain.verify(request.researchPack(), result);
              SynthesisStream.finish(result, verification, packProblems, events);
            }
          },
          ResearchService::failure,
          slot::close);
    }
  }

  private SynthesizeRequest readPackRequest(ServerRequest req) {
    try {
      return HttpJson.read(
          req, config.maxPackBodyBytes(), "POST /api/research/synthesize", SynthesizeRequest.class);
    } catch (ApiException e) {
      String field = e.error().field();
      if (field != null && field.startsWith("research_pack")) {
        throw ApiException.badRequest("invalid_pack", e.getMessage(), field);
      }
      throw e;
    }
  }

  private PreparedSynthesis prepare(SynthesizeRequest request) {
    try {
      return brain.prepare(request.researchPack(), request.options());
    } catch (InvalidSearchException e) {
      if ("research_pack".equals(e.field())) {
        throw ApiException.badRequest("invalid_pack", e.getMessage(), e.field());
      }
      throw e;
    }
  }

  private void run(ServerRequest req, ServerResponse res) throws IOException {
    var request =
        HttpJson.read(req, config.maxBodyBytes(), "POST /api/research/run", ResearchRequest.class)
            .validate();
    // Checked now, so bad options are a 422 rather than an error event later.
    var options = request.options(brain.researchOptions());
    request.synthesisOptions(brain.config().research().synthesis());
    checkSourceTypes(options.sourceTypes());
    if (wantsJson(req)) {
      runToJson(request, res);
      return;
    }
    requireEventStream(req);
    try (var slot = limiter.acquire()) {
      BrainServer.refreshQuietly(brain);
      if (!request.wantsAnswer()) {
        EventStream.serve(
            res,
            config.heartbeatInterval(),
            e -> evidenceOnly(request, e, null),
            ResearchService::failure,
            slot::close);
        return;
      }
      ModelGate.Resolved model;
      try {
        model = models.resolve(request.model());
      } catch (ApiException e) {
        if (!ModelGate.unavailable(e)) {
          throw e;
        }
        // The evidence stands without the model, as `brain research` falls back to it: the
        // stream says why there is no answer and shows what was found.
        String why = e.error().message();
        EventStream.serve(
            res,
            config.heartbeatInterval(),
            events -> evidenceOnly(request, events, why),
            ResearchService::failure,
            slot::close);
        return;
      }
      RunRequest run = brain.request(request, model.model());
      EventStream.serve(
          res,
          config.heartbeatInterval(),
          new RunStream(brain, run, model)::run,
          ResearchService::failure,
          slot::close);
    }
  }

  /**
   * Whether a run is asked for as one JSON document ({@code Accept: application/json} without
   * {@code text/event-stream}): what {@code brain research} sends to a running server, so it prints
   * the same {@code research_run.v1} the in-process run returns.
   */
  private static boolean wantsJson(ServerRequest req) {
    return req.headers().contains(io.helidon.http.HeaderNames.ACCEPT)
        && !req.headers().isAccepted(MediaTypes.TEXT_EVENT_STREAM)
        && req.headers().isAccepted(MediaTypes.APPLICATION_JSON);
  }

  /** A whole run answered as its {@code research_run.v1} JSON when it ends. */
  private void runToJson(ResearchRequest request, ServerResponse res) throws IOException {
    if (!request.wantsAnswer()) {
      throw ApiException.invalidOption(
          "synthesize: false is answered as an event stream; POST /api/research returns the pack"
              + " as JSON",
          "synthesize");
    }
    var slot = limiter.acquire();
    try {
      BrainServer.refreshQuietly(brain);
      ModelGate.Resolved model = models.resolve(request.model());
      RunResult result = brain.run(brain.request(request, model.model()), RunListener.NONE);
      HttpJson.ok(res, result);
    } finally {
      slot.close();
    }
  }

  /**
   * A run without an answer: the pack (with pinned records), no model, no trace. Either the answer
   * was switched off ({@code modelUnavailable} null) or the model cannot be reached: then {@code
   * done} says so in {@code model_unavailable}, with stop reason {@code synthesis_unavailable}.
   */
  private void evidenceOnly(
      ResearchRequest request, EventStream.Emitter events, String modelUnavailable)
      throws IOException {
    long t0 = System.nanoTime();
    Researcher.Pinned pinned = brain.pack(request);
    events.emit("pack", pinned.pack());
    Map<String, Object> done = new LinkedHashMap<>();
    done.put("retrieval_only", true);
    String stop = modelUnavailable == null ? "retrieval_only" : "synthesis_unavailable";
    done.put("stop_reason", pinned.pack().hasEvidence() ? stop : "no_evidence");
    if (modelUnavailable != null) {
      done.put("model_unavailable", modelUnavailable);
    }
    done.put("evidence_count", pinned.pack().evidence().size());
    done.put("pinned_added", pinned.report().accepted());
    done.put("pinned_rejected", pinned.report().rejected());
    done.put("elapsed_ms", (System.nanoTime() - t0) / 1_000_000);
    events.emit("done", done);
  }

  /** Unknown source types are a 422 before anything runs (the retriever's own check, early). */
  private void checkSourceTypes(List<String> types) throws IOException {
    if (types.isEmpty()) {
      return;
    }
    List<String> allowed = brain.sourceTypes();
    for (String type : types) {
      if (!allowed.contains(type)) {
        throw new InvalidSearchException(
            "source_types", "unknown source type '" + type + "'", allowed);
      }
    }
  }

  /** An SSE endpoint answers 406 to a client that accepts no event stream. */
  private static void requireEventStream(ServerRequest req) {
    if (!req.headers().isAccepted(MediaTypes.TEXT_EVENT_STREAM)) {
      throw new ApiException(
          Status.NOT_ACCEPTABLE_406,
          "not_acceptable",
          "this endpoint answers with text/event-stream; send Accept: text/event-stream",
          null);
    }
  }

  /** The data of the {@code error} event of a failure after the stream opened. */
  static Map<String, Object> failure(Throwable error) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("answer_status", "error");
    if (error instanceof ApiException api) {
      if (api.error().answerStatus() != null) {
        data.put("answer_status", api.error().answerStatus());
      }
      data.put("code", api.error().code());
      data.put("message", api.getMessage());
    } else if (error instanceof InvalidSearchException invalid) {
      data.put("code", "invalid_option");
      data.put("message", invalid.getMessage());
    } else {
      data.put("code", "internal");
      data.put("message", "internal error; the server log has the details");
    }
    return data;
  }
}
