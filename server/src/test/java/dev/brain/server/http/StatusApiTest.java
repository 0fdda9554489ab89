package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.BrainConfig;
import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import dev.brain.index.SyncListener;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/status} on a real server over two synced collections, one of them an Obsidian
 * vault: per collection its root, counts, vector coverage, last sync, skipped files and the vault
 * name the web page builds {@code obsidian://} links from.
 */
class StatusApiTest {

  @TempDir static Path tmp;

  private static BrainServer server;
  private static URI base;
  private static Path vault;
  private static Path papers;

  @BeforeAll
  static void syncTwoCollectionsAndServe() throws IOException {
    vault = Files.createDirectories(tmp.resolve("Garden"));
    Files.createDirectories(vault.resolve(".obsidian"));
    Files.writeString(vault.resolve("kettle.md"), "# Kettle\n\nThe gooseneck kettle pours slowly.");
    Files.writeString(vault.resolve("scale.md"), "# Scale\n\nThe scale weighs the beans.");
    papers = Files.createDirectories(tmp.resolve("papers"));
    Files.writeString(papers.resolve("grind.md"), "# Grind\n\nA finer grind extracts faster.");
    Files.write(papers.resolve("big.md"), new byte[2048]);
    Path data = tmp.resolve("data");
    var collections =
        List.of(
            CollectionRoot.of("garden", vault),
            new CollectionRoot("papers", papers, List.of(), 1024));
    CollectionsFile.of(data).write(collections);
    var config = BrainConfig.defaults(data);
    try (var index = BrainIndex.open(config.indexConfig(), null)) {
      index.syncCollections(collections, SyncListener.NONE);
    }
    server = BrainServer.start(config.withServer(config.server().withPort(0)));
    base = server.url();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void statusListsEachCollectionWithCountsCoverageAndVault() {
    var reply = Http.get(base, "/api/status");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(reply.contentType()).startsWith("application/json");
    var status = reply.json();
    assertThat(status.path("records").asLong()).isEqualTo(3);
    assertThat(status.path("vector_coverage").asDouble()).isEqualTo(1.0);
    assertThat(status.path("watching").asBoolean()).isFalse();
    // No summary model configured: none named, nothing pending, nothing failed.
    assertThat(status.has("summary_model")).isTrue();
    assertThat(status.path("summary_model").isNull()).isTrue();
    assertThat(status.path("model_summary_coverage").asDouble()).isEqualTo(1.0);
    assertThat(status.path("model_summary_failures").isArray()).isTrue();

    var collections = status.path("collections");
    assertThat(collections.size()).isEqualTo(2);
    var garden = collections.get(0);
    assertThat(garden.path("name").asText()).isEqualTo("garden");
    assertThat(garden.path("root").asText()).isEqualTo(vault.toAbsolutePath().toString());
    assertThat(garden.path("records").asLong()).isEqualTo(2);
    assertThat(garden.path("chunks").asLong()).isPositive();
    assertThat(garden.path("last_sync_at").isTextual()).isTrue();
    assertThat(garden.path("obsidian_vault").asText()).isEqualTo("Garden");

    var paperStatus = collections.get(1);
    assertThat(paperStatus.path("name").asText()).isEqualTo("papers");
    assertThat(paperStatus.path("records").asLong()).isEqualTo(1);
    assertThat(paperStatus.path("obsidian_vault").isNull()).isTrue();
    assertThat(paperStatus.path("skipped").toString()).contains("big.md");
  }

  @Test
  void headAnswersLikeGetWithoutABody() {
    var reply =
        Http.send(
            HttpRequest.newBuilder(base.resolve("/api/status"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.body()).isEmpty();
  }

  @Test
  void statusIsRefusedWithoutTheTokenOfAGuardedServer() throws IOException {
    var config = BrainConfig.defaults(tmp.resolve("data"));
    var guarded =
        config.withServer(config.server().withPort(0).withToken("s3cret-token-0123456789abcdef"));
    try (var other = BrainServer.start(guarded)) {
      var refused = Http.get(other.url(), "/api/status");
      assertThat(refused.status()).isEqualTo(401);
      var allowed =
          Http.send(
              HttpRequest.newBuilder(other.url().resolve("/api/status"))
                  .header("Authorization", "Bearer s3cret-token-0123456789abcdef"));
      assertThat(allowed.status()).isEqualTo(200);
      assertThat(allowed.json().path("collections").size()).isEqualTo(2);
    }
  }
}
