package dev.brain.server.http;

import dev.brain.Brain;
import dev.brain.SearchRequest;
import dev.brain.index.IndexStats;
import dev.brain.retrieval.InvalidSearchException;
import io.helidon.common.parameters.Parameters;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /api/search} (fast search: one retrieval, no planning, no model), {@code GET /api/get}
 * (one record with its chunks and links) and {@code GET /api/facets} (what Search can filter on).
 */
final class SearchService implements HttpService {

  /** Default and largest {@code max_chars} of {@code /api/get}: a record's text and chunks. */
  static final int DEFAULT_MAX_CHARS = 200_000;

  private final Brain brain;
  private final RecordPage page;

  SearchService(Brain brain) {
    this.brain = brain;
    this.page = new RecordPage(brain);
  }

  @Override
  public void routing(HttpRules rules) {
    rules
        .get("/search", this::search)
        .head("/search", HttpJson.head(this::search))
        .get("/get", this::get)
        .head("/get", HttpJson.head(this::get))
        .get("/facets", this::facets)
        .head("/facets", HttpJson.head(this::facets))
        .get("/asset", page::asset)
        .head("/asset", page::asset);
  }

  /**
   * {@code GET /api/facets}: the filters Search offers, from what is indexed: record counts per
   * kind and source type, the most used tags with their counts, and the days the records' creation
   * times span (what {@code since}/{@code until} can usefully narrow).
   */
  private void facets(ServerRequest req, ServerResponse res) throws IOException {
    rejectUnknown(req.query(), Set.of());
    BrainServer.refreshQuietly(brain);
    IndexStats stats = brain.stats();
    var body = new LinkedHashMap<String, Object>();
    body.put("records", stats.records());
    body.put("kinds", stats.byKind());
    body.put("source_types", stats.bySourceType());
    body.put("tags", stats.topTags());
    body.put("distinct_tags", stats.distinctTags());
    IndexStats.DateSpan created = stats.created();
    body.put(
        "created",
        created == null
            ? null
            : Map.of("first", day(created.first()), "last", day(created.last())));
    HttpJson.ok(res, body);
  }

  private static String day(Instant at) {
    return LocalDate.ofInstant(at, ZoneOffset.UTC).toString();
  }

  /** {@code GET /api/search}: the parameters read as one {@link SearchRequest}. */
  private void search(ServerRequest req, ServerResponse res) throws IOException {
    Parameters query = req.query();
    rejectUnknown(query, SearchRequest.PARAMS.keySet());
    try {
      SearchRequest request = SearchRequest.fromParams(name -> query.all(name, List::of));
      BrainServer.refreshQuietly(brain);
      HttpJson.ok(res, brain.search(request));
    } catch (InvalidSearchException e) {
      throw e.field().equals("query") ? e.named("q") : e; // the query's parameter is q
    }
  }

  private void get(ServerRequest req, ServerResponse res) throws IOException {
    rejectUnknown(req.query(), Set.of("key", "max_chars", "render"));
    String render = req.query().first("render").orElse("");
    if (!render.isEmpty() && !render.equals("html")) {
      throw ApiException.invalidOption("render must be html, got '" + render + "'", "render");
    }
    int maxChars =
        req.query()
            .first("max_chars")
            .map(v -> SearchRequest.number("max_chars", v))
            .orElse(DEFAULT_MAX_CHARS);
    if (maxChars < 1 || maxChars > DEFAULT_MAX_CHARS) {
      throw ApiException.invalidOption(
          "max_chars must be from 1 to " + DEFAULT_MAX_CHARS + ", got " + maxChars, "max_chars");
    }
    String key = req.query().first("key").orElse("");
    if (key.isBlank()) {
      throw ApiException.badRequest(
          "missing_parameter",
          "give the record key as ?key=... (for example note:notes/coffee/espresso.md)",
          "key");
    }
    BrainServer.refreshQuietly(brain);
    var detail = brain.get(key.strip());
    if (detail.isEmpty()) {
      throw ApiException.notFound(brain.noRecordMessage(key), "key");
    }
    var out = RecordCap.cap(detail.get(), maxChars);
    if (render.equals("html") && out instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
      page.addTo(o, detail.get());
    }
    HttpJson.ok(res, out);
  }

  static void rejectUnknown(Parameters query, Set<String> allowed) {
    for (String name : query.names()) {
      if (!allowed.contains(name)) {
        throw ApiException.invalidOption(
            "unknown query parameter '" + name + "'", name, allowed.stream().sorted().toList());
      }
    }
  }
}
