package dev.brain.server.http;

import dev.brain.index.BrainIndex;
import dev.brain.research.PreparedSynthesis;
import dev.brain.research.ResearchPack;
import dev.brain.research.Researcher;
import dev.brain.research.SynthesisResult;
import dev.brain.retrieval.InvalidSearchException;
import io.helidon.common.media.type.MediaTypes;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The research endpoints: {@code POST /api/research} (the pack as JSON), {@code POST
 * /api/research/synthesize} (an answer from a posted pack, as SSE) and {@code POST
 * /api/research/run} (pack, answer and verification, as SSE). Every check that can fail — body,
 * options, run slot, model — runs before a stream opens, so failures are plain HTTP errors; after
 * that, failures are a terminal {@code error} event.
 */
final class ResearchService implements HttpService {
  private final ServerConfig config;
  private final BrainIndex index;
  private final Researcher researcher;
  private final ModelGate models;
  private final RunLimiter limiter;

  ResearchService(
      ServerConfig config,
      BrainIndex index,
      Researcher researcher,
      ModelGate models,
      RunLimiter limiter) {
    this.config = config;
    this.index = index;
    this.researcher = researcher;
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
            .validate();
    BrainServer.refreshQuietly(index);
    HttpJson.ok(res, build(request).pack());
  }

  private FollowUp.Pinned build(ResearchRequest request) throws IOException {
    var options = request.options();
    ResearchPack pack = researcher.pack(request.searchQuestion(), options);
    return FollowUp.withPinned(pack, request.pinnedKeys(), index, options.maxCharsPerDoc());
  }

  private void synthesize(ServerRequest req, ServerResponse res) {
    var request = readPackRequest(req);
    if (request.researchPack() == null) {
      throw ApiException.badRequest(
          "invalid_pack",
          "research_pack is missing; send the whole body POST /api/research returned",
          "research_pack");
    }
    PreparedSynthesis prepared = prepare(request);
    requireEventStream(req);
    limiter.acquire();
    try {
      ModelGate.Resolved model = models.resolve(request.model());
      EventStream.serve(
          res,
          config.heartbeatInterval(),
          events -> {
            SynthesisResult result =
                SynthesisStream.answer(researcher, prepared, model, request.options(), events);
            if (result != null) {
              var verification = researcher.verify(request.researchPack(), result);
              events.emit("done", SynthesisStream.done(result, verification));
            }
          },
          ResearchService::failure);
    } finally {
      limiter.release();
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
      return researcher.prepare(request.researchPack(), request.options());
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
    request.synthesisOptions(); // a bad budget is a 422 now rather than an error event later
    requireEventStream(req);
    limiter.acquire();
    try {
      ModelGate.Resolved model =
          request.wantsAnswer() ? models.resolve(request.model()) : models.resolve("extractive");
      BrainServer.refreshQuietly(index);
      long t0 = System.nanoTime();
      FollowUp.Pinned pinned = build(request);
      long packMillis = (System.nanoTime() - t0) / 1_000_000;
      var run = new ResearchRun(researcher, request, pinned, model, packMillis);
      EventStream.serve(res, config.heartbeatInterval(), run::run, ResearchService::failure);
    } finally {
      limiter.release();
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
      data.put("code", api.error().code());
      data.put("message", api.getMessage());
    } else if (error instanceof InvalidSearchException invalid) {
      data.put("code", "invalid_option");
      data.put("message", invalid.getMessage());
    } else {
      data.put("code", "internal");
      data.put(
          "message",
          "internal error (" + error.getClass().getSimpleName() + "); the server log has details");
    }
    return data;
  }
}
