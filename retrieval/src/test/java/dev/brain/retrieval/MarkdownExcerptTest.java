package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Excerpts show a note's text as a reader sees it, not its Markdown syntax. */
class MarkdownExcerptTest {

  static final String KETTLE = "note:vault/kettle.md";
  static final String BACKUPS = "note:vault/backups.md";

  @TempDir static Path dir;
  static BrainIndex index;
  static Retriever retriever;

  @BeforeAll
  static void buildIndex() throws IOException {
    Path vault = dir.resolve("vault");
    Files.createDirectories(vault);
    Files.writeString(
        vault.resolve("kettle.md"),
        """
        # Kettle settings

        The gooseneck kettle I use every morning:

        | | |
        |---|---|
        | Temperature | 80 °C for green tea |
        | Volume | 1.2 litres |

        Descale it monthly.
        """);
    Files.writeString(
        vault.resolve("backups.md"),
        """
        # Backups

        > [!info]+ Retention
        > Snapshots are kept for 7 days on the [[NAS|home server]].

        ```bash
        restic snapshots --compact
        ```
        """);
    index = BrainIndex.open(IndexConfig.defaults(dir.resolve("data")));
    index.sync(List.of(vault));
    retriever = new Retriever(index);
  }

  @AfterAll
  static void close() throws IOException {
    index.close();
  }

  private static EvidenceRow first(String query) throws IOException {
    SearchResult result = retriever.search(query, SearchOptions.builder().lanes(Lane.BM25).build());
    return result.rows().get(0);
  }

  @Test
  void aTableRowReadsAsItsCellsWithoutPipes() throws IOException {
    EvidenceRow row = first("green tea temperature");

    assertThat(row.sourceKey()).isEqualTo(KETTLE);
    assertThat(row.excerpt())
        .isEqualTo(
            "Kettle settings The gooseneck kettle I use every morning: Temperature: 80 °C for"
                + " green tea. Volume: 1.2 litres. Descale it monthly.")
        .doesNotContain("|", "---");
    assertThat(row.matchedTerms()).containsExactlyInAnyOrder("green", "tea", "temperature");
  }

  @Test
  void aCalloutCodeFenceAndWikilinkLoseTheirMarkers() throws IOException {
    EvidenceRow row = first("snapshots retention");

    assertThat(row.sourceKey()).isEqualTo(BACKUPS);
    assertThat(row.excerpt())
        .isEqualTo(
            "Backups Retention Snapshots are kept for 7 days on the home server."
                + " restic snapshots --compact")
        .doesNotContain("[!", ">", "[[", "```", "#");
  }

  @Test
  void aLongTableIsCutAroundTheMatchedTermsAtWordBoundaries() throws IOException {
    EvidenceRow row =
        retriever
            .search("descale", SearchOptions.builder().lanes(Lane.BM25).maxExcerptChars(60).build())
            .rows()
            .get(0);

    assertThat(row.sourceKey()).isEqualTo(KETTLE);
    assertThat(row.excerpt())
        .hasSizeLessThanOrEqualTo(60)
        .startsWith("…")
        .endsWith("Descale it monthly.")
        .doesNotContain("|");
    String body = row.excerpt().substring(1);
    String plain =
        "Kettle settings The gooseneck kettle I use every morning: Temperature: 80 °C for"
            + " green tea. Volume: 1.2 litres. Descale it monthly.";
    assertThat(plain).contains(" " + body);
  }
}
