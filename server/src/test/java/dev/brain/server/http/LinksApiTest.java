package dev.brain.server.http;

import static dev.brain.server.http.Http.enc;
import static dev.brain.server.http.Http.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.index.importer.Keys;
import dev.brain.server.mcp.BrainTools;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/get} and MCP {@code brain_get} over two real collections: every link reaches a
 * record or says why, and a path or title that is not a key gets the key it means.
 */
class LinksApiTest {
  @TempDir static Path dir;
  static Path data;
  static BrainServer server;

  @BeforeAll
  static void start() throws Exception {
    data = TwoCollectionsData.create(dir);
    server = BrainServer.start(SampleVaultData.onAnyPort(data));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void getListsEachLinkWithTheRecordItReachesOrWhyItReachesNone() {
    var reply = get(server.url(), "/api/get?key=" + enc("note:papers/Raft.md"));

    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    var links = reply.json().path("links");
    assertThat(links.findValuesAsText("key"))
        .containsExactly(
            "note:papers/Kafka migration.md",
            "note:papers/Lost note.md",
            Keys.source("https://raft.github.io/raft.pdf"));
    assertThat(links.get(0).path("target").asText()).isEqualTo("note:notes/Kafka migration.md");
    assertThat(links.get(1).path("target").isNull()).isTrue();
    assertThat(links.get(1).path("text").asText()).isEqualTo("Lost note");
    assertThat(links.get(1).path("unresolved").asText())
        .isEqualTo("no note of this name in any collection");
    assertThat(links.get(2).path("text").asText()).isEqualTo("https://raft.github.io/raft.pdf");
    assertThat(reply.json().path("record").path("title").asText()).isEqualTo("Raft");
  }

  @Test
  void theRenderedTextLinksAWikilinkToTheNoteOfAnotherCollectionAndMarksTheMissingOne() {
    var reply = get(server.url(), "/api/get?key=" + enc("note:papers/Raft.md") + "&render=html");

    String html = reply.json().path("text_html").asText();
    assertThat(html)
        .contains("href=\"/record/note%3Anotes%2FKafka%20migration.md\">Kafka migration</a>")
        .contains("<span class=\"unresolved-link\"")
        .contains(">Lost note</span>")
        .contains("<input type=\"checkbox\" disabled=\"\" checked=\"\"> print it")
        .contains(
            "<a rel=\"nofollow\" href=\"https://raft.github.io/raft.pdf\">"
                + "https://raft.github.io/raft.pdf</a>");
    assertThat(reply.json().path("titles").path("note:notes/Kafka migration.md").asText())
        .isEqualTo("Kafka migration");
  }

  @Test
  void theRecipesWebLinkReachesTheBookmarkOfItsAddress() {
    var reply =
        get(server.url(), "/api/get?key=" + enc("note:notes/V60 recipe.md") + "&render=html");

    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    String bookmark = Keys.bookmark(TwoCollectionsData.HOFFMANN);
    assertThat(reply.json().path("links").get(0).path("target").asText()).isEqualTo(bookmark);
    assertThat(reply.json().path("titles").path(bookmark).asText()).isEqualTo("James Hoffmann");
    assertThat(get(server.url(), "/api/get?key=" + enc(bookmark)).status()).isEqualTo(200);
  }

  @Test
  void aPathThatIsNoKeyIsA404ThatNamesTheKeyItMeans() {
    var reply = get(server.url(), "/api/get?key=" + enc("home/Apartment lease.md"));

    assertThat(reply.status()).isEqualTo(404);
    assertThat(reply.error().path("code").asText()).isEqualTo("not_found");
    assertThat(reply.error().path("message").asText())
        .isEqualTo(
            "no record with key 'home/Apartment lease.md'; did you mean"
                + " note:notes/home/Apartment lease.md?");
    assertThat(
            get(server.url(), "/api/get?key=" + enc("no such thing"))
                .error()
                .path("message")
                .asText())
        .isEqualTo(
            "no record with key 'no such thing'; keys look like note:<collection>/<path>, and a"
                + " search finds one");
  }

  @Test
  void mcpGetShowsResolvedAndUnresolvedLinksAndSuggestsAKey() throws Exception {
    try (Brain brain = Brain.openReadOnly(BrainConfig.defaults(data))) {
      var tools = new BrainTools(brain);
      var out = tools.get(Map.of("key", "note:papers/Raft.md"));

      assertThat(out.structured().get("links")).isEqualTo(List.of("note:notes/Kafka migration.md"));
      assertThat((List<?>) out.structured().get("unresolved_links"))
          .hasSize(2)
          .first()
          .isEqualTo(
              Map.of(
                  "key", "note:papers/Lost note.md",
                  "text", "Lost note",
                  "reason", "no note of this name in any collection"));
      assertThat(out.text())
          .contains("links: note:notes/Kafka migration.md")
          .contains("unresolved link: Lost note (no note of this name in any collection)")
          .contains(
              "unresolved link: https://raft.github.io/raft.pdf (no saved page, bookmark or feed"
                  + " entry of this address in the index)");
      assertThatThrownBy(() -> tools.get(Map.of("key", "Apartment lease")))
          .hasMessageContaining(
              "no record with key 'Apartment lease'; did you mean"
                  + " note:notes/home/Apartment lease.md?");
    }
  }
}
