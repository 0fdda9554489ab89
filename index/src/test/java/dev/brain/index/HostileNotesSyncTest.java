package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Notes built to exhaust a recursive reader (nesting ten thousand levels deep) cost at most their
 * own file, with a plain reason: the sync completes and the rest of the collection is searchable.
 */
class HostileNotesSyncTest {

  @TempDir Path data;
  @TempDir Path vault;

  private static Embedder model;

  @BeforeAll
  static void loadModel() {
    model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
  }

  @AfterAll
  static void closeModel() {
    model.close();
  }

  @Test
  void deeplyNestedNotesAreIndexedAndTheRestOfTheCollectionWithThem() throws IOException {
    write("pelican.md", "# Pelican\n\nThe pelican migrates in autumn.\n");
    write("armadillo.md", "# Armadillo\n\nThe armadillo digs burrows.\n");
    write("list.md", "# List\n\n" + "- ".repeat(10_000) + "zebrafinch\n");
    write("quote.md", "# Quote\n\n" + ">".repeat(10_000) + " quokka\n");
    write(
        "stars.md",
        "*".repeat(20_000)
            + "starling"
            + "*".repeat(20_000)
            + "\n\n"
            + "[".repeat(20_000)
            + " magpie\n");

    try (var index = BrainIndex.open(IndexConfig.defaults(data), model)) {
      SyncReport report = index.sync(List.of(vault));

      assertThat(report.failed())
          .allSatisfy(
              issue -> assertThat(issue.reason()).doesNotContain("java.", "Error", "Exception"));
      for (String word :
          List.of("pelican", "armadillo", "zebrafinch", "quokka", "starling", "magpie")) {
        assertThat(matches(index, word)).as(word).isPositive();
      }
      assertThat(report.failed()).isEmpty();
    }
  }

  @Test
  void aNoteWithNulBytesAFiveMegabyteLineAndAnRss091FeedAreSearchable() throws IOException {
    Files.write(
        vault.resolve("nul.md"),
        "# Nul\n\nThe capybara\0 swims\0 daily.\n".getBytes(StandardCharsets.UTF_8));
    var line = new StringBuilder("tapir ");
    while (line.length() < 1_000_000) {
      line.append("lorem ipsum dolor ");
    }
    line.append("ocelot ");
    while (line.length() < 5_000_000) {
      line.append("lorem ipsum dolor ");
    }
    write("long.md", line.append("\n").toString());
    Files.writeString(
        vault.resolve("old.rss"),
        """
        <?xml version="1.0" encoding="ISO-8859-1"?>
        <!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" \
        "http://my.netscape.com/publish/formats/rss-0.91.dtd">
        <rss version="0.91"><channel><title>Old news</title><link>http://example.com/</link>
        <description>An old feed</description><language>en-us</language>
        <item><title>Sighting</title><link>http://example.com/wombat</link>
        <description>A wombat was seen near the river.</description></item>
        </channel></rss>
        """,
        StandardCharsets.ISO_8859_1);

    // Token counts and vectors by a stand-in: a real tokenizer takes a minute over 5 MB of words.
    try (var index = BrainIndex.open(IndexConfig.defaults(data), new WordEmbedder(model))) {
      SyncReport report = index.sync(List.of(vault));

      assertThat(report.failed()).isEmpty();
      assertThat(report.skipped()).isEmpty();
      for (String word : List.of("capybara", "swims", "tapir", "ocelot", "wombat")) {
        assertThat(matches(index, word)).as(word).isPositive();
      }
    }
  }

  @Test
  void aBillionLaughsFeedFailsWithAPlainReasonAndTheRestOfTheCollectionIsIndexed()
      throws IOException {
    write("pelican.md", "# Pelican\n\nThe pelican migrates in autumn.\n");
    write("laughs.rss", billionLaughs());

    // Bounded so that a regression fails instead of hanging; not a performance assertion.
    assertTimeoutPreemptively(
        Duration.ofMinutes(5),
        () -> {
          try (var index = BrainIndex.open(IndexConfig.defaults(data), model)) {
            SyncReport report = index.sync(List.of(vault));

            assertThat(report.failed())
                .singleElement()
                .satisfies(
                    issue -> {
                      assertThat(issue.file().getFileName()).hasToString("laughs.rss");
                      assertThat(issue.reason())
                          .contains("DOCTYPE")
                          .doesNotContain("\n", "java.", "Exception", "JAXP");
                    });
            assertThat(matches(index, "pelican")).isPositive();
          }
        });
  }

  private void write(String name, String text) throws IOException {
    Files.writeString(vault.resolve(name), text);
  }

  /** Chunks whose text holds {@code word}, analyzed as the index analyzes text. */
  static int matches(BrainIndex index, String word) throws IOException {
    var query = new BooleanQuery.Builder();
    try (var analyzer = new TextAnalyzer();
        var tokens = analyzer.tokenStream(IndexFields.TEXT, word)) {
      CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
      tokens.reset();
      while (tokens.incrementToken()) {
        query.add(new TermQuery(new Term(IndexFields.TEXT, term.toString())), Occur.MUST);
      }
      tokens.end();
    }
    IndexSearcher searcher = index.acquireSearcher();
    try {
      return searcher.count(query.build());
    } finally {
      index.releaseSearcher(searcher);
    }
  }

  /** The model's name and size, with one token per word and vectors from a hash of the text. */
  private record WordEmbedder(Embedder real) implements Embedder {
    @Override
    public EmbeddingModel model() {
      return real.model();
    }

    @Override
    public List<float[]> embedPassages(List<String> texts) {
      return texts.stream().map(this::vector).toList();
    }

    @Override
    public float[] embedQuery(String query) {
      return vector(query);
    }

    @Override
    public int countTokens(String text) {
      return text.isBlank() ? 0 : text.strip().split("\\s+").length;
    }

    @Override
    public void close() {}

    private float[] vector(String text) {
      float[] v = new float[real.model().dimension()];
      v[Math.floorMod(text.hashCode(), v.length)] = 1;
      return v;
    }
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
