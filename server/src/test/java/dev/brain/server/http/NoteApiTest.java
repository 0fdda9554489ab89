package dev.brain.server.http;

import static dev.brain.server.http.Http.post;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.BrainConfig;
import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/note/research} over a small vault of its own (a test that writes never touches
 * {@code samples/}), with the extractive synthesizer: the section, the write, and the refusals as
 * structured errors.
 */
class NoteApiTest {

  @TempDir static Path dir;
  static Path vault;
  static BrainServer server;
  static URI base;

  @BeforeAll
  static void start() throws Exception {
    vault = Files.createDirectories(dir.resolve("vault"));
    Files.writeString(
        vault.resolve("Grinder.md"),
        "# Grinder\n\nThe [[Espresso]] grind is 15 on the burr grinder.\n\n## Burrs\n\nConical"
            + " burrs, 63 mm.\n");
    Files.writeString(
        vault.resolve("Espresso.md"),
        "# Espresso\n\n18 g in, 36 g out. Grind 15 on the burr grinder with conical burrs.\n");
    Files.writeString(
        vault.resolve("Burrs.md"), "# Burrs\n\nConical burrs keep retention low in a grinder.\n");
    Path data = dir.resolve("data");
    var collections = List.of(CollectionRoot.of("vault", vault));
    CollectionsFile.of(data).write(collections);
    BrainConfig config = SampleVaultData.onAnyPort(data);
    try (var index = BrainIndex.open(config.indexConfig())) {
      index.syncCollections(collections, null);
    }
    server = BrainServer.start(config);
    base = server.url();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String body(Map<String, Object> fields) throws Exception {
    return HttpJson.MAPPER.writeValueAsString(fields);
  }

  @Test
  void aDryRunAnswersTheSectionAndWritesNothing() throws Exception {
    Path note = vault.resolve("Grinder.md");
    String before = Files.readString(note);
    var reply =
        post(
            base,
            "/api/note/research",
            body(Map.of("path", "note:vault/Grinder.md", "dry_run", true)),
            server.clientToken());
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(reply.json().path("schema_version").asText()).isEqualTo("note_research.v1");
    assertThat(reply.json().path("section").asText()).startsWith("## Research").contains("[[");
    assertThat(reply.json().path("topics_researched").asInt())
        .isPositive()
        .isEqualTo(reply.json().path("topics").size());
    String section = reply.json().path("section").asText();
    assertThat(reply.json().path("preview").asText())
        .isEqualTo(section.substring(0, Math.min(500, section.length())));
    assertThat(reply.json().path("written").asBoolean()).isFalse();
    assertThat(Files.readString(note)).isEqualTo(before);
  }

  @Test
  void writesTheSectionIntoTheNote() throws Exception {
    Path note = Files.writeString(vault.resolve("Retention.md"), "# Retention\n\nGrinder burrs.\n");
    var reply =
        post(
            base,
            "/api/note/research",
            body(Map.of("path", note.toString())),
            server.clientToken());
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(reply.json().path("written").asBoolean()).isTrue();
    assertThat(reply.json().path("reindex").asText()).startsWith("not re-indexed");
    assertThat(Files.readString(note))
        .startsWith("# Retention\n\nGrinder burrs.\n\n## Research\n")
        .isEqualTo("# Retention\n\nGrinder burrs.\n\n" + reply.json().path("section").asText());
  }

  @Test
  void aHandWrittenSectionIsAConflictUnlessReplaceIsTrue() throws Exception {
    String mine = "# Conical\n\nGrinder burrs.\n\n## Research\n\nMy reading.\n";
    Path note = Files.writeString(vault.resolve("Conical.md"), mine);
    var reply =
        post(
            base,
            "/api/note/research",
            body(Map.of("path", note.toString())),
            server.clientToken());
    assertThat(reply.status()).as(reply.body()).isEqualTo(409);
    assertThat(reply.error().path("code").asText()).isEqualTo("research_section_kept");
    assertThat(reply.error().path("field").asText()).isEqualTo("replace");
    assertThat(reply.error().path("message").asText()).contains("My reading.", "replace");
    assertThat(Files.readString(note)).isEqualTo(mine);
    reply =
        post(
            base,
            "/api/note/research",
            body(Map.of("path", note.toString(), "replace", true)),
            server.clientToken());
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(Files.readString(note))
        .isEqualTo("# Conical\n\nGrinder burrs.\n\n" + reply.json().path("section").asText());
  }

  @Test
  void aWriteWithoutTheServerTokenIsRefused() throws Exception {
    Path note = vault.resolve("Grinder.md");
    String before = Files.readString(note);
    var reply = post(base, "/api/note/research", body(Map.of("path", "note:vault/Grinder.md")));
    assertThat(reply.status()).as(reply.body()).isEqualTo(401);
    assertThat(reply.error().path("code").asText()).isEqualTo("unauthorized");
    assertThat(Files.readString(note)).isEqualTo(before);
  }

  @Test
  void hostilePathsAreRefusedAndNoFileChanges() throws Exception {
    Path outside = Files.writeString(dir.resolve("secret.md"), "# Secret\n\nGrinder burrs.\n");
    Path link = vault.resolve("escape.md");
    if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      Files.createSymbolicLink(link, outside);
    }
    Files.createDirectories(vault.resolve("folder.md"));
    var before = snapshot();
    String secretBefore = Files.readString(outside);
    List<String> hostile =
        List.of(
            "../secret.md",
            "../../etc/passwd",
            "note:vault/../secret.md",
            "note:vault/../../secret.md",
            "note:other/Grinder.md",
            vault.resolve("../secret.md").toString(),
            outside.toString(),
            "escape.md",
            "note:vault/escape.md",
            link.toString(),
            "folder.md",
            "/dev/zero",
            "/proc/self/environ",
            "/etc/passwd",
            "Grinder.md/..",
            "note:vault/",
            "note:",
            " ",
            "%2e%2e/secret.md",
            "..\\secret.md",
            "Grinder.md\u0000.txt",
            "file:///etc/passwd",
            "~/secret.md",
            "nope.md",
            vault.toString(),
            dir.toString(),
            "/",
            ".",
            "..");
    for (String path : hostile) {
      var reply =
          post(
              base,
              "/api/note/research",
              HttpJson.MAPPER.writeValueAsString(Map.of("path", path)),
              server.clientToken());
      assertThat(reply.status()).as(path + ": " + reply.body()).isBetween(400, 499);
      assertThat(reply.body()).doesNotContain("Exception");
    }
    assertThat(snapshot()).isEqualTo(before);
    assertThat(Files.readString(outside)).isEqualTo(secretBefore);
  }

  /** Every regular file of the vault (symlinks not followed) with its bytes, as text. */
  private static Map<String, String> snapshot() throws Exception {
    var files = new java.util.TreeMap<String, String>();
    try (var walk = Files.walk(vault)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          files.put(vault.relativize(p).toString(), Files.readString(p));
        }
      }
    }
    return files;
  }

  @Test
  void refusalsAreStructuredErrors() throws Exception {
    Path binary = Files.write(vault.resolve("photo.md"), new byte[] {(byte) 0xff, 0, 1});
    var reply =
        post(
            base,
            "/api/note/research",
            body(Map.of("path", binary.toString())),
            server.clientToken());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.error().path("code").asText()).isEqualTo("invalid_note");
    assertThat(reply.error().path("message").asText()).contains("looks binary");
    assertThat(reply.error().path("field").asText()).isEqualTo("path");

    Path outside = Files.writeString(dir.resolve("outside.md"), "# Outside\n");
    reply =
        post(
            base,
            "/api/note/research",
            body(Map.of("path", outside.toString())),
            server.clientToken());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.error().path("message").asText())
        .contains("not inside a configured collection");

    reply = post(base, "/api/note/research", body(Map.of("path", "nope.md")), server.clientToken());
    assertThat(reply.status()).isEqualTo(404);

    reply = post(base, "/api/note/research", "{}", server.clientToken());
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.error().path("field").asText()).isEqualTo("path");

    reply =
        post(
            base,
            "/api/note/research",
            body(Map.of("path", "Grinder.md", "depth", "very")),
            server.clientToken());
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.error().path("field").asText()).isEqualTo("depth");
    assertThat(reply.body()).doesNotContain("Exception");
  }
}
