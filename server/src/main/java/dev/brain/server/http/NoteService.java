package dev.brain.server.http;

import dev.brain.Brain;
import dev.brain.ServerSettings;
import dev.brain.research.note.Depth;
import dev.brain.research.note.NoteRequest;
import dev.brain.research.note.NoteResearchException;
import dev.brain.research.note.NoteResearcher;
import dev.brain.research.note.NoteResult;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;

/**
 * {@code POST /api/note/research}: researches a note and writes its {@code ## Research} section
 * (brain's one write path), answering the {@code note_research.v1} result. Takes a run slot like a
 * research run. Refusals and failures are structured errors: 400 no path, 404 no such note, 409 the
 * note changed meanwhile, 422 not a text note inside a collection or a bad option, 502 the model
 * failed or cited what is not real.
 */
final class NoteService implements HttpService {

  /**
   * The body.
   *
   * @param path the note: a key {@code note:<collection>/<path>}, an absolute path, or a path in a
   *     collection
   * @param depth {@code shallow} (default) or {@code deep}
   * @param focus narrows the topics; optional
   * @param dryRun build the section, write nothing; default false
   */
  record Body(String path, String depth, String focus, Boolean dryRun, Boolean replace) {}

  private final ServerSettings config;
  private final Brain brain;
  private final RunLimiter limiter;
  private final ClientToken token;

  NoteService(ServerSettings config, Brain brain, RunLimiter limiter, ClientToken token) {
    this.config = config;
    this.token = token;
    this.brain = brain;
    this.limiter = limiter;
  }

  @Override
  public void routing(HttpRules rules) {
    rules.post("/research", this::research);
  }

  private void research(ServerRequest req, ServerResponse res) throws IOException {
    token.require(req, res);
    Body body = HttpJson.read(req, config.maxBodyBytes(), "POST /api/note/research", Body.class);
    if (body.path() == null || body.path().isBlank()) {
      throw ApiException.badRequest("missing_path", "path is missing: name the note", "path");
    }
    var slot = limiter.acquire();
    try {
      BrainServer.refreshQuietly(brain);
      var collections = brain.collections();
      var request =
          new NoteRequest(
              NoteResearcher.locate(body.path(), collections),
              Depth.of(body.depth()),
              body.focus(),
              Boolean.TRUE.equals(body.dryRun()),
              Boolean.TRUE.equals(body.replace()));
      NoteResult result = brain.researchNote(request);
      HttpJson.ok(res, result);
    } catch (NoteResearchException e) {
      throw error(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } finally {
      slot.close();
    }
  }

  /** The HTTP error of a refusal or failure. */
  static ApiException error(NoteResearchException e) {
    return switch (e.reason()) {
      case INVALID_INPUT ->
          new ApiException(
              Status.UNPROCESSABLE_CONTENT_422, "invalid_note", e.getMessage(), e.field());
      case NOT_FOUND -> ApiException.notFound(e.getMessage(), e.field());
      case CONFLICT ->
          "replace".equals(e.field())
              ? new ApiException(
                  Status.CONFLICT_409, "research_section_kept", e.getMessage(), "replace")
              : new ApiException(Status.CONFLICT_409, "note_changed", e.getMessage(), "path");
      case MODEL_FAILED ->
          new ApiException(Status.BAD_GATEWAY_502, "model_failed", e.getMessage(), null);
      case VERIFICATION_FAILED ->
          new ApiException(Status.BAD_GATEWAY_502, "verification_failed", e.getMessage(), null);
      case RESEARCH_FAILED ->
          new ApiException(
              Status.INTERNAL_SERVER_ERROR_500, "research_failed", e.getMessage(), null);
    };
  }
}
