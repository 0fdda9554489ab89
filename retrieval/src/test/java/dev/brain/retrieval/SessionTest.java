package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.BrainIndex;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A retriever session answers counts from the index's statistics exactly as the searches they
 * replace would, and its searches give what one-off searches give.
 */
class SessionTest {

  @TempDir static Path dir;
  static BrainIndex index;
  static Retriever retriever;

  @BeforeAll
  static void buildIndex() throws IOException {
    index = TestVault.build(dir);
    retriever = new Retriever(index);
  }

  @AfterAll
  static void close() throws IOException {
    index.close();
  }

  /** What the pack used to ask: a BM25-only search's count of matching chunks. */
  private static long searchedMatches(String word) throws IOException {
    var options = SearchOptions.builder().lanes(Lane.BM25).limit(1).depth(1).build();
    return retriever.search(word, options).lane(Lane.BM25).totalMatches();
  }

  @Test
  void chunkFrequenciesEqualTheBm25LanesMatchCounts() throws IOException {
    List<String> words =
        List.of("espresso", "backflush", "grinder", "tomatoes", "machine", "the", "zyzzyva");
    try (Retriever.Session session = retriever.session()) {
      Map<String, Long> frequencies = session.chunkFrequencies(words);

      assertThat(frequencies.keySet()).containsExactlyElementsOf(words);
      for (String word : words) {
        assertThat(frequencies.get(word)).as(word).isEqualTo(searchedMatches(word));
      }
      assertThat(frequencies.get("espresso")).isPositive();
      assertThat(frequencies.get("the")).isZero();
      assertThat(frequencies.get("zyzzyva")).isZero();
    }
  }

  @Test
  void chunkCountIsTheIndexsChunkCount() throws IOException {
    try (Retriever.Session session = retriever.session()) {
      assertThat(session.chunkCount()).isEqualTo(index.stats().chunks()).isPositive();
    }
    assertThat(retriever.chunkCount()).isEqualTo(index.stats().chunks());
  }

  @Test
  void lexicalRecordsEqualTheBm25LanesRecordCountPerKind() throws IOException {
    try (Retriever.Session session = retriever.session()) {
      for (String kind : SearchFilters.KINDS) {
        SearchFilters filters = SearchFilters.NONE.withKinds(List.of(kind));
        var options =
            SearchOptions.builder().lanes(Lane.BM25).limit(1).depth(1000).filters(filters).build();
        int expected = retriever.search("espresso machine", options).lane(Lane.BM25).records();

        assertThat(session.lexicalRecords("espresso machine", filters, 1000))
            .as(kind)
            .isEqualTo(expected);
      }
      assertThat(session.lexicalRecords("espresso", SearchFilters.NONE, 1000)).isPositive();
    }
  }

  @Test
  void searchesInOneSessionGiveWhatOneOffSearchesGive() throws IOException {
    var options = SearchOptions.defaults();
    try (Retriever.Session session = retriever.session()) {
      for (String q : List.of("espresso backflush", "espresso machine", "espresso backflush")) {
        SearchResult inSession = session.search(q, options);
        SearchResult alone = retriever.search(q, options);

        assertThat(inSession.rows()).isEqualTo(alone.rows());
      }
    }
  }
}
