package dev.brain.server.http;

import static dev.brain.server.http.Http.enc;
import static dev.brain.server.http.Http.get;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.BrainConfig;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The JSON API over the sample vault, through a real server on a free port. */
class SearchApiTest {
  private static BrainServer server;
  private static URI base;

  @BeforeAll
  static void start() throws Exception {
    server =
        BrainServer.start(
            BrainConfig.defaults(SampleVaultData.dataDir())
                .withServer(BrainConfig.defaults(SampleVaultData.dataDir()).server().withPort(0)));
    base = server.url();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void healthReportsTheIndexAndTheModel() {
    var reply = get(base, "/api/health");
    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.contentType()).startsWith("application/json");
    JsonNode body = reply.json();
    assertThat(body.path("status").asText()).isEqualTo("ok");
    assertThat(body.path("index").path("records").asLong()).isGreaterThan(60);
    assertThat(body.path("model").asText()).isEqualTo("extractive");
  }

  @Test
  void searchReturnsRankedEvidenceRowsInSnakeCaseWithLaneProvenance() {
    var reply = get(base, "/api/search?q=" + enc("backflush espresso machine") + "&limit=5");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    JsonNode body = reply.json();
    assertThat(body.path("rows").size()).isBetween(1, 5);
    JsonNode top = body.path("rows").get(0);
    assertThat(top.path("source_key").asText()).isNotBlank();
    assertThat(top.path("evidence_role").asText()).isNotBlank();
    assertThat(top.path("retrieval").path("lanes").size()).isPositive();
    assertThat(body.path("timings_ms").path("total").isNumber()).isTrue();
  }

  @Test
  void aOneHitSearchReturnsItsHitAndCountsTheWeakRowsLeftOut() {
    var reply = get(base, "/api/search?q=backflush");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    JsonNode body = reply.json();
    assertThat(body.path("rows").size()).isEqualTo(1);
    assertThat(body.path("rows").get(0).path("source_key").asText()).isEqualTo("src:bcd60653c442");
    assertThat(body.path("weak_rows_left_out").asInt()).isEqualTo(9);
  }

  @Test
  void searchFiltersBySourceTypeKindAndLanes() {
    var reply = get(base, "/api/search?q=tempo+runs&source_type=transcript&kind=source&lanes=bm25");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    List<String> types = new ArrayList<>();
    reply.json().path("rows").forEach(r -> types.add(r.path("source_type").asText()));
    assertThat(types).isNotEmpty().containsOnly("transcript");
    JsonNode lanes = reply.json().path("lanes");
    assertThat(lanes.toString()).contains("\"name\":\"vector\",\"status\":\"disabled\"");
  }

  @Test
  void facetsOfferWhatIsIndexedWithCountsAndTheDateRange() {
    var reply = get(base, "/api/facets");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(reply.contentType()).startsWith("application/json");
    JsonNode body = reply.json();
    assertThat(body.path("records").asLong()).isGreaterThan(60);
    assertThat(body.path("source_types").path("note").asLong()).isGreaterThan(10);
    assertThat(body.path("source_types").path("pdf").asLong()).isPositive();
    assertThat(body.path("kinds").path("item").asLong()).isPositive();
    assertThat(body.path("tags").get(0).path("tag").asText()).isNotBlank();
    assertThat(body.path("tags").get(0).path("count").asLong()).isPositive();
    assertThat(body.path("distinct_tags").asInt()).isGreaterThanOrEqualTo(body.path("tags").size());
    // The sample vault's earliest front-matter date is 2024-01-02.
    String first = body.path("created").path("first").asText();
    String last = body.path("created").path("last").asText();
    assertThat(first).matches("\\d{4}-\\d{2}-\\d{2}").isLessThanOrEqualTo("2024-01-02");
    assertThat(last).matches("\\d{4}-\\d{2}-\\d{2}").isGreaterThan(first);
  }

  @Test
  void facetsTakeNoParametersAndAnswerHeadAndOnlyReads() {
    var unknown = get(base, "/api/facets?tag=x");
    assertThat(unknown.status()).isEqualTo(422);
    assertThat(unknown.error().path("code").asText()).isEqualTo("invalid_option");
    assertThat(unknown.error().path("field").asText()).isEqualTo("tag");
    var head =
        RawHttp.exchange(
            server.port(), "HEAD /api/facets HTTP/1.1\r\nHost: 127.0.0.1", new byte[0]);
    assertThat(head.status()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
    var post = Http.post(base, "/api/facets", "{}");
    assertThat(post.status()).isEqualTo(405);
    assertThat(post.headers().firstValue("allow")).contains("GET, HEAD");
    assertThat(post.error().path("code").asText()).isEqualTo("method_not_allowed");
  }

  @Test
  void facetsAndTheRecordPageAreBehindTheGuard() {
    var foreignHost = RawHttp.get(server.port(), "/api/facets", "evil.example");
    assertThat(foreignHost.status()).isEqualTo(403);
    assertThat(foreignHost.body()).contains("\"code\":\"forbidden_host\"").doesNotContain("note");
    var crossSite =
        Http.send(
            java.net.http.HttpRequest.newBuilder(base.resolve("/api/facets"))
                .header("Origin", "http://evil.example"));
    assertThat(crossSite.status()).isEqualTo(403);
    assertThat(crossSite.error().path("code").asText()).isEqualTo("forbidden_origin");
    var record = RawHttp.get(server.port(), "/record/" + enc("note:vault/Home.md"), "evil.example");
    assertThat(record.status()).isEqualTo(403);
  }

  @Test
  void aRecordPageIsServedForAnyKeyAndOnlyRead() {
    for (String key : List.of("note:vault/Home.md", "note:vault/coffee/Niche Zero.md", "x")) {
      var reply = get(base, "/record/" + enc(key));
      assertThat(reply.status()).as(key).isEqualTo(200);
      assertThat(reply.contentType()).startsWith("text/html");
      assertThat(reply.body()).contains("record.js", "favicon.svg");
    }
    var post = Http.post(base, "/record/" + enc("note:vault/Home.md"), "{}");
    assertThat(post.status()).isEqualTo(405);
    assertThat(post.error().path("code").asText()).isEqualTo("method_not_allowed");
  }

  @Test
  void theFaviconIsServed() {
    var reply = get(base, "/favicon.svg");
    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.contentType()).startsWith("image/svg+xml");
  }

  @Test
  void emptyQueryIsA400WithTheFieldNamed() {
    var reply = get(base, "/api/search?q=+");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.error().path("code").asText()).isEqualTo("empty_question");
    assertThat(reply.error().path("field").asText()).isEqualTo("q");
  }

  @Test
  void unknownSourceTypeIsA422ListingTheAllowedValues() {
    var reply = get(base, "/api/search?q=coffee&source_type=fax");
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.error().path("code").asText()).isEqualTo("invalid_option");
    assertThat(reply.error().path("field").asText()).isEqualTo("source_types");
    assertThat(reply.error().path("allowed_values").toString()).contains("note", "pdf");
  }

  @Test
  void negativeOrNonNumericLimitIsA422() {
    var negative = get(base, "/api/search?q=coffee&limit=-3");
    assertThat(negative.status()).isEqualTo(422);
    assertThat(negative.error().path("field").asText()).isEqualTo("limit");
    var text = get(base, "/api/search?q=coffee&limit=ten");
    assertThat(text.status()).isEqualTo(422);
    assertThat(text.error().path("message").asText()).contains("whole number");
  }

  @Test
  void unknownLaneFusionOrParameterIsA422() {
    assertThat(get(base, "/api/search?q=coffee&lanes=bm25,magic").error().path("field").asText())
        .isEqualTo("lanes");
    assertThat(get(base, "/api/search?q=coffee&fusion=max").status()).isEqualTo(422);
    var unknown = get(base, "/api/search?q=coffee&limt=3");
    assertThat(unknown.status()).isEqualTo(422);
    assertThat(unknown.error().path("field").asText()).isEqualTo("limt");
  }

  @Test
  void badDateIsA422() {
    var reply = get(base, "/api/search?q=coffee&since=yesterday");
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.error().path("field").asText()).isEqualTo("since");
  }

  @Test
  void getReturnsTheRecordWithItsChunks() {
    var reply = get(base, "/api/get?key=" + enc("note:vault/Home.md"));
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(reply.json().path("record").path("key").asText()).isEqualTo("note:vault/Home.md");
    assertThat(reply.json().path("chunks").size()).isPositive();
    // Roles speak the wire's lower case, as evidence rows do.
    assertThat(reply.json().path("chunks").findValuesAsText("role")).containsOnly("raw");
  }

  @Test
  void getSaysWhichDateTheRecordShowsAndWhereItCameFrom() {
    var created =
        get(base, "/api/get?key=" + enc("note:vault/search-engine/Tokenizer decisions.md"));
    var dated = get(base, "/api/get?key=" + enc("note:vault/daily/2024-03-10.md"));

    assertThat(created.status()).as(created.body()).isEqualTo(200);
    assertThat(created.json().path("record").path("created_at").asText()).startsWith("2024-03-09");
    assertThat(created.json().path("record").path("date_source").asText())
        .isEqualTo("front_matter:created");
    assertThat(created.json().path("record").path("updated_at").isTextual()).isTrue();
    assertThat(dated.json().path("record").path("created_at").asText()).startsWith("2024-03-10");
    assertThat(dated.json().path("record").path("date_source").asText())
        .isEqualTo("front_matter:date");
  }

  @Test
  void getOfAnUnknownKeyIsA404Envelope() {
    var reply = get(base, "/api/get?key=" + enc("note:vault/nope.md"));
    assertThat(reply.status()).isEqualTo(404);
    assertThat(reply.error().path("code").asText()).isEqualTo("not_found");
    assertThat(reply.error().path("field").asText()).isEqualTo("key");
  }

  @Test
  void getWithoutAKeyIsA400() {
    var reply = get(base, "/api/get");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.error().path("code").asText()).isEqualTo("missing_parameter");
  }

  @Test
  void unknownPathsAreA404Envelope() {
    var reply = get(base, "/api/nothing-here");
    assertThat(reply.status()).isEqualTo(404);
    assertThat(reply.contentType()).startsWith("application/json");
    assertThat(reply.error().path("message").asText()).contains("/api/nothing-here");
    assertThat(reply.error().has("field")).isTrue();
  }

  @Test
  void aConditionalRequestForUnchangedStaticContentIsA304WithoutBody() {
    var first = get(base, "/app.css");
    assertThat(first.status()).isEqualTo(200);
    String etag = first.headers().firstValue("etag").orElseThrow();
    var again =
        Http.send(
            java.net.http.HttpRequest.newBuilder(base.resolve("/app.css"))
                .header("If-None-Match", etag));
    assertThat(again.status()).isEqualTo(304);
    assertThat(again.body()).isEmpty();
  }

  @Test
  void chatIsTheDefaultPageAndSearchHasItsOwn() {
    var chat = get(base, "/");
    assertThat(chat.status()).isEqualTo(200);
    assertThat(chat.contentType()).startsWith("text/html");
    assertThat(chat.body()).contains("Chat");
    var search = get(base, "/search");
    assertThat(search.status()).isEqualTo(200);
    assertThat(search.body()).contains("Search");
  }
}
