package dev.brain.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.ServerSettings;
import dev.brain.evals.CaseProposal;
import dev.brain.evals.EvalException;
import dev.brain.evals.ResearchEvalCase;
import dev.brain.server.chat.Conversation;
import dev.brain.server.chat.ConversationException;
import dev.brain.server.chat.ConversationExport;
import dev.brain.server.chat.ConversationStore;
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
 * The saved Chat conversations ({@code <data>/chat-transcripts}): {@code GET /api/conversations}
 * (last saved first), {@code GET /api/conversations/{id}} (the saved file), {@code GET
 * /api/conversations/{id}/export?format=md|json} (the shareable form: redacted, no absolute paths,
 * a rejected draft never as an answer), {@code GET /api/conversations/{id}/eval-cases} (the draft
 * eval cases the Harness Lab proposes from it); and the writes, which need the client token as the
 * other writes do: {@code POST /api/conversations} (save: a new conversation, or turns merged into
 * {@code id}'s), {@code POST /api/conversations/{id}/rename}, {@code POST
 * /api/conversations/{id}/delete} and {@code POST /api/conversations/{id}/eval-cases} (appends the
 * drafts to a case file under {@code <data>/evals/cases}).
 */
final class ConversationService implements HttpService {
  private final ServerSettings config;
  private final ConversationStore store;
  private final ConversationExport export;
  private final ClientToken token;
  private final Path dataDir;

  ConversationService(
      ServerSettings config, ConversationStore store, ClientToken token, Path dataDir) {
    this.config = config;
    this.store = store;
    this.export = new ConversationExport(store.redactor());
    this.token = token;
    this.dataDir = dataDir;
  }

  /**
   * The body of {@code POST /api/conversations}.
   *
   * @param id the conversation to add the turns to; {@code null} for a new one
   * @param title its title; default: the saved one, else the first question
   * @param turns the Chat's turns (each an object with its {@code question}); those marked {@code
   *     "unsaved": true} are not written
   */
  record SaveRequest(String id, String title, List<ObjectNode> turns) {}

  /** The body of {@code POST /api/conversations/{id}/rename}. */
  record RenameRequest(String title) {}

  /**
   * The body of {@code POST /api/conversations/{id}/eval-cases}.
   *
   * @param file the case file's name under {@code <data>/evals/cases}, without {@code .jsonl}
   *     (default {@value TraceService#DEFAULT_CASE_FILE})
   */
  record CasesRequest(String file) {}

  @Override
  public void routing(HttpRules rules) {
    rules
        .get("/", this::list)
        .head("/", HttpJson.head(this::list))
        .post("/", this::save)
        .get("/{id}", this::show)
        .head("/{id}", HttpJson.head(this::show))
        .get("/{id}/export", this::export)
        .get("/{id}/eval-cases", this::proposals)
        .post("/{id}/rename", this::rename)
        .post("/{id}/delete", this::delete)
        .post("/{id}/eval-cases", this::appendCases);
  }

  private void list(ServerRequest req, ServerResponse res) throws IOException {
    SearchService.rejectUnknown(req.query(), Set.of());
    List<Conversation.Summary> all = store.list();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("count", all.size());
    body.put("conversations", all);
    HttpJson.ok(res, body);
  }

  private void show(ServerRequest req, ServerResponse res) throws IOException {
    SearchService.rejectUnknown(req.query(), Set.of());
    HttpJson.ok(res, find(req));
  }

  private void export(ServerRequest req, ServerResponse res) throws IOException {
    SearchService.rejectUnknown(req.query(), Set.of("format"));
    Conversation conversation = find(req);
    String format = req.query().first("format").orElse("md");
    switch (format) {
      case "json" -> HttpJson.ok(res, export.json(conversation));
      case "md" -> {
        res.header(HeaderNames.CONTENT_TYPE, "text/markdown; charset=utf-8");
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        res.send(export.markdown(conversation));
      }
      default ->
          throw ApiException.invalidOption(
              "unknown format '" + format + "'", "format", List.of("md", "json"));
    }
  }

  private void save(ServerRequest req, ServerResponse res) throws IOException {
    token.require(req, res);
    var request =
        HttpJson.read(req, config.maxPackBodyBytes(), "POST /api/conversations", SaveRequest.class);
    if (request.turns() == null || request.turns().isEmpty()) {
      throw ApiException.badRequest(
          "missing_parameter", "give the conversation's \"turns\" (a non-empty array)", "turns");
    }
    var saved = mapped(() -> store.save(request.id(), request.title(), request.turns()));
    if (saved.isEmpty()) {
      throw new ApiException(
          Status.UNPROCESSABLE_CONTENT_422,
          "nothing_to_save",
          "every turn is marked \"Don't save this question\" (unsaved); nothing was written",
          "turns");
    }
    HttpJson.send(
        res, request.id() == null ? Status.CREATED_201 : Status.OK_200, saved.get().summary());
  }

  private void rename(ServerRequest req, ServerResponse res) throws IOException {
    token.require(req, res);
    var request =
        HttpJson.read(
            req, config.maxBodyBytes(), "POST /api/conversations/{id}/rename", RenameRequest.class);
    String id = req.path().pathParameters().get("id");
    HttpJson.ok(res, mapped(() -> store.rename(id, request.title())).summary());
  }

  private void delete(ServerRequest req, ServerResponse res) throws IOException {
    token.require(req, res);
    String id = req.path().pathParameters().get("id");
    mapped(
        () -> {
          store.delete(id);
          return null;
        });
    HttpJson.ok(res, Map.of("deleted", id));
  }

  private void proposals(ServerRequest req, ServerResponse res) throws IOException {
    SearchService.rejectUnknown(req.query(), Set.of());
    Conversation conversation = find(req);
    var cases = new ArrayList<Object>();
    for (ResearchEvalCase draft : drafts(conversation)) {
      cases.add(HttpJson.MAPPER.readTree(CaseProposal.line(draft)));
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", conversation.id());
    body.put("title", conversation.title());
    body.put("cases", cases);
    HttpJson.ok(res, body);
  }

  private void appendCases(ServerRequest req, ServerResponse res) throws IOException {
    token.require(req, res);
    var request =
        HttpJson.read(
            req,
            config.maxBodyBytes(),
            "POST /api/conversations/{id}/eval-cases",
            CasesRequest.class);
    String name = TraceService.caseFileName(request.file());
    Conversation conversation = find(req);
    Path file = dataDir.resolve(CaseProposal.CASES_DIRECTORY).resolve(name + ".jsonl");
    var written = new ArrayList<String>();
    var skipped = new ArrayList<Map<String, String>>();
    // One append at a time, so two clicks cannot both pass the duplicate-id check.
    synchronized (this) {
      for (ResearchEvalCase draft : drafts(conversation)) {
        try {
          CaseProposal.append(draft, file);
          written.add(draft.id());
        } catch (EvalException e) {
          skipped.add(Map.of("case_id", draft.id(), "reason", e.getMessage()));
        }
      }
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("case_ids", written);
    body.put("skipped", skipped);
    body.put("file", CaseProposal.CASES_DIRECTORY + "/" + name + ".jsonl");
    body.put("path", file.toString());
    body.put("reviewed", false);
    HttpJson.send(res, written.isEmpty() ? Status.OK_200 : Status.CREATED_201, body);
  }

  private static List<ResearchEvalCase> drafts(Conversation conversation) {
    try {
      return CaseProposal.fromConversation(
          HttpJson.MAPPER.valueToTree(conversation), conversation.id());
    } catch (EvalException e) {
      throw new ApiException(Status.CONFLICT_409, "no_cases", e.getMessage(), "id");
    }
  }

  private Conversation find(ServerRequest req) throws IOException {
    String id = req.path().pathParameters().get("id");
    return mapped(() -> store.find(id));
  }

  /** A store call whose refusals become the API's errors. */
  private interface StoreCall<T> {
    T call() throws IOException;
  }

  private static <T> T mapped(StoreCall<T> call) throws IOException {
    try {
      return call.call();
    } catch (ConversationException e) {
      Status status =
          switch (e.kind()) {
            case NOT_FOUND -> Status.NOT_FOUND_404;
            case INVALID -> Status.UNPROCESSABLE_CONTENT_422;
            case TOO_LARGE -> Status.REQUEST_ENTITY_TOO_LARGE_413;
            case UNREADABLE -> Status.CONFLICT_409;
          };
      String code =
          switch (e.kind()) {
            case NOT_FOUND -> "not_found";
            case INVALID -> "invalid_option";
            case TOO_LARGE -> "too_large";
            case UNREADABLE -> "unreadable_conversation";
          };
      throw new ApiException(status, code, e.getMessage(), e.field());
    }
  }
}
