package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.brain.index.CorpusRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FeedImporterTest {

  @Test
  void readsRssItemsAsFeedEntries() throws Exception {
    ImportResult result = Fixtures.read("feed.rss");
    List<CorpusRecord> entries = result.records();

    assertThat(entries).hasSize(2);
    CorpusRecord first = entries.get(0);
    String link = "https://slowtomatoes.example.net/posts/blossom-end-rot";
    assertThat(first.key()).isEqualTo(Keys.feedEntry(link));
    assertThat(first.kind()).isEqualTo(CorpusRecord.KIND_ITEM);
    assertThat(first.sourceType()).isEqualTo("feed_entry");
    assertThat(first.title()).isEqualTo("Blossom end rot is about water, not calcium");
    assertThat(first.url()).isEqualTo(link);
    assertThat(first.author()).isEqualTo("Mira Okafor");
    assertThat(first.publishedAt()).isEqualTo(Instant.parse("2024-06-04T07:00:00Z"));
    assertThat(first.createdAt()).as("not the feed file's mtime").isNull();
    assertThat(first.tags()).containsExactly("tomatoes", "soil-health");
    assertThat(first.text())
        .isEqualTo(
            "Uneven watering causes most blossom end rot.\n\nMulch and water deeply twice a week.");
    assertThat(first.links()).containsExactly(Keys.source(link));
  }

  @Test
  void anEntryWithoutLinkIsKeyedByItsGuidAndOneWithNeitherIsSkipped() throws Exception {
    ImportResult result = Fixtures.read("feed.rss");

    assertThat(result.records().get(1).key()).isEqualTo(Keys.feedEntry("post-102"));
    assertThat(result.records().get(1).url()).isNull();
    assertThat(result.warnings()).singleElement().asString().contains("entry 3", "neither");
  }

  @Test
  void readsAtomEntries() throws Exception {
    List<CorpusRecord> entries = Fixtures.read("feed.atom").records();

    assertThat(entries)
        .extracting(CorpusRecord::title)
        .containsExactly("Why BM25 still wins on short queries", "HNSW parameters");
    CorpusRecord first = entries.get(0);
    assertThat(first.key())
        .isEqualTo(Keys.feedEntry("https://search.example.dev/bm25-short-queries"));
    assertThat(first.author()).isEqualTo("Sam Lee");
    assertThat(first.publishedAt()).isEqualTo(Instant.parse("2024-04-20T09:00:00Z"));
    assertThat(first.text()).isEqualTo("Short keyword queries favour lexical matching.");
    assertThat(first.tags()).containsExactly("search");
    assertThat(entries.get(1).publishedAt()).isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
    assertThat(entries.get(1).text()).isEqualTo("M=16 and efConstruction=100 are sane defaults.");
  }

  @Test
  void invalidXmlIsMalformed() {
    assertThatThrownBy(() -> Fixtures.read("broken-feed.xml"))
        .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.skipped()).isFalse())
        .hasMessageContaining("broken-feed.xml")
        .hasMessageContaining("line 6");
  }

  @Test
  void xmlThatIsNoFeedIsSkippedAsUnsupported() {
    assertThatThrownBy(() -> Fixtures.read("not-a-feed.xml"))
        .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.skipped()).isTrue())
        .hasMessageContaining("<project>");
  }

  @Test
  void anRss091FeedWithNetscapesDoctypeIsRead(@TempDir Path root) throws Exception {
    Path file =
        Files.writeString(
            root.resolve("old.rss"),
            """
            <?xml version="1.0" encoding="ISO-8859-1"?>
            <!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" \
            "http://my.netscape.com/publish/formats/rss-0.91.dtd">
            <rss version="0.91">
            <channel>
            <title>Old news</title>
            <link>http://example.com/</link>
            <description>An old feed</description>
            <language>en-us</language>
            <item>
            <title>Wombat sighting</title>
            <link>http://example.com/wombat</link>
            <description>A wombat was seen near the river.</description>
            </item>
            </channel>
            </rss>
            """);

    ImportResult result = Fixtures.IMPORTERS.read(file, root);

    assertThat(result.records())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.title()).isEqualTo("Wombat sighting");
              assertThat(r.text()).isEqualTo("A wombat was seen near the river.");
            });
  }

  @Test
  void anExternalEntityIsNeverRead(@TempDir Path root) throws Exception {
    Path secret = Files.writeString(root.resolve("secret.txt"), "tiramisu-password");
    Path dtd =
        Files.writeString(
            root.resolve("evil.dtd"), "<!ENTITY fromdtd SYSTEM \"" + secret.toUri() + "\">");
    Path file =
        Files.writeString(
            root.resolve("evil.rss"),
            """
            <?xml version="1.0"?>
            <!DOCTYPE rss SYSTEM "%s" [
              <!ENTITY leak SYSTEM "%s">
            ]>
            <rss version="2.0"><channel><title>t</title><link>http://example.com/</link>
            <description>d</description>
            <item><title>Entry</title><link>http://example.com/a</link>
            <description>before &leak; &fromdtd; after</description></item>
            </channel></rss>
            """
                .formatted(dtd.toUri(), secret.toUri()));

    String read;
    try {
      read = Fixtures.IMPORTERS.read(file, root).records().toString();
    } catch (ImportException e) {
      read = e.getMessage();
    }

    assertThat(read).doesNotContain("tiramisu-password");
  }

  @Test
  void aFeedDeclaringEntitiesInItsDoctypeFailsWithAOneLineReasonBeforeAnyIsExpanded(
      @TempDir Path root) throws Exception {
    Path file = Files.writeString(root.resolve("laughs.rss"), billionLaughs());

    assertThatThrownBy(
            () ->
                assertTimeoutPreemptively(
                    Duration.ofSeconds(60), () -> Fixtures.IMPORTERS.read(file, root)))
        .isInstanceOfSatisfying(
            ImportException.class,
            e -> {
              assertThat(e.skipped()).isFalse();
              assertThat(e.getMessage())
                  .contains("laughs.rss", "DOCTYPE")
                  .doesNotContain("\n", "Exception", "JAXP", "java.");
            });
  }

  /** A feed whose DOCTYPE declares the "billion laughs": ten entities, each ten of the last. */
  static String billionLaughs() {
    var doctype = new StringBuilder("<!DOCTYPE rss [\n  <!ENTITY lol0 \"lol\">\n");
    for (int i = 1; i <= 9; i++) {
      doctype.append("  <!ENTITY lol").append(i).append(" \"");
      doctype.append(("&lol" + (i - 1) + ";").repeat(10)).append("\">\n");
    }
    return "<?xml version=\"1.0\"?>\n"
        + doctype
        + "]>\n"
        + "<rss version=\"2.0\"><channel><title>t</title><link>http://example.com/</link>\n"
        + "<description>d</description>\n"
        + "<item><title>Laughs</title><link>http://example.com/a</link>\n"
        + "<description>&lol9;</description></item>\n"
        + "</channel></rss>\n";
  }
}
