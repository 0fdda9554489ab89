package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A row whose only match of the query is a tag (issue 46: a daily note tagged {@code #pi-hole} that
 * says nothing of the query's words was lifted to #2, above the note about it) ranks below the rows
 * that hold the query's words; and a search tries only tags some record carries.
 */
class TagOnlyMatchTest {
  @TempDir static Path dir;
  static BrainIndex index;
  static Retriever retriever;

  static final String DAILY = "note:vault/2024-05-02.md";

  @BeforeAll
  static void buildIndex() throws IOException {
    Path vault = Files.createDirectories(dir.resolve("vault"));
    write(
        vault,
        "2024-05-02.md",
        "---\ntags: [daily, pi-hole]\n---\n# 2024-05-02\n\nBought groceries, called my sister, "
            + "long walk by the river in the evening.\n");
    write(
        vault,
        "pihole.md",
        "# Ad blocking at home\n\nThe pi hole on the Raspberry Pi blocks ads for every device;"
            + " its dashboard lists the blocked domains.\n");
    write(
        vault,
        "nas.md",
        "# NAS\n\nThe dashboard of the NAS shows disk usage and the temperature of each disk.\n");
    write(
        vault,
        "router.md",
        "# Router\n\nThe router's admin dashboard shows which devices are online.\n");
    write(vault, "bread.md", "# Sourdough\n\nFeed the starter the night before baking.\n");
    index = BrainIndex.open(IndexConfig.defaults(dir.resolve("data")));
    index.sync(List.of(vault));
    retriever = new Retriever(index);
  }

  @AfterAll
  static void close() throws IOException {
    index.close();
  }

  private static void write(Path vault, String name, String text) throws IOException {
    Files.writeString(vault.resolve(name), text, StandardCharsets.UTF_8);
  }

  private static final SearchOptions READ = SearchOptions.builder().tagOnlyBelowWords(true).build();

  @Test
  void aRowMatchedByItsTagAloneRanksBelowEveryRowThatHoldsTheQueryWords() throws IOException {
    SearchResult result = retriever.search("pi hole dashboard", READ);

    List<String> keys = result.rows().stream().map(EvidenceRow::sourceKey).toList();
    EvidenceRow daily = result.rows().get(keys.indexOf(DAILY));
    assertThat(daily.retrieval().lane(Lane.EXACT_TAG)).isNotNull();
    var withWords =
        result.rows().stream()
            .filter(r -> !r.sourceKey().equals(DAILY) && !r.matchedTerms().isEmpty())
            .toList();
    assertThat(withWords).extracting(EvidenceRow::sourceKey).hasSize(3);
    // Fusion put the tagged note above a row that holds the words; the rows put it below them all.
    assertThat(withWords)
        .anySatisfy(
            r -> assertThat(r.retrieval().fusedScore()).isLessThan(daily.retrieval().fusedScore()));
    assertThat(withWords).allSatisfy(r -> assertThat(r.rank()).isLessThan(daily.rank()));
    assertThat(result.rows()).extracting(EvidenceRow::rank).containsExactly(1, 2, 3, 4, 5);
  }

  @Test
  void aRowWithTheQueryWordsInItsTextKeepsItsTagLift() throws IOException {
    SearchResult result = retriever.search("daily groceries", READ);

    assertThat(result.rows().get(0).sourceKey()).isEqualTo(DAILY);
  }

  @Test
  void aTagAskedForAsHashTagKeepsItsLift() throws IOException {
    SearchResult asked = retriever.search("#pi-hole dashboard", READ);
    SearchResult fused = retriever.search("#pi-hole dashboard", SearchOptions.defaults());

    assertThat(asked.rows())
        .extracting(EvidenceRow::sourceKey)
        .containsExactlyElementsOf(fused.rows().stream().map(EvidenceRow::sourceKey).toList());
  }

  @Test
  void withoutTheOptionRowsKeepTheirFusedOrder() throws IOException {
    SearchResult result = retriever.search("pi hole dashboard", SearchOptions.defaults());

    for (int i = 1; i < result.rows().size(); i++) {
      assertThat(result.rows().get(i).retrieval().fusedScore())
          .isLessThanOrEqualTo(result.rows().get(i - 1).retrieval().fusedScore());
    }
  }

  @Test
  void onlyTagsSomeRecordCarriesAreTriedAndReported() throws IOException {
    SearchResult result = retriever.search("pi hole dashboard", SearchOptions.defaults());

    // Tried as tag forms of the words: pi-hole-dashboard, pi-hole, hole-dashboard, pi, hole,
    // dashboard; only pi-hole is a tag.
    assertThat(result.tagAliases()).containsExactly("pi-hole");
    try (Retriever.Session session = retriever.session()) {
      assertThat(session.existingTags(List.of("dashboard", "daily", "pi-hole")))
          .containsExactly("daily", "pi-hole");
    }
  }
}
