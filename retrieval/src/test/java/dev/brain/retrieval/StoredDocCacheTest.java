package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexInternals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records kept across searches by segment and doc: never one that changed since it was read. */
class StoredDocCacheTest {

  @TempDir Path dir;

  @Test
  void aRecordChangedAfterASearchShowedItIsShownAsItIsNow() throws Exception {
    try (BrainIndex index = TestVault.build(dir)) {
      var retriever = new Retriever(index);
      var bm25 = SearchOptions.builder().lanes(Lane.BM25).build();
      assertThat(retriever.search("dialing espresso", bm25).rows())
          .extracting(EvidenceRow::title)
          .contains("Dialing in espresso");

      Path note = dir.resolve("vault/espresso.md");
      Files.writeString(
          note, Files.readString(note).replace("# Dialing in espresso", "# Dialing in ristretto"));
      index.sync(List.of(dir.resolve("vault")));

      var rows = retriever.search("dialing espresso", bm25).rows();
      assertThat(rows).extracting(EvidenceRow::title).contains("Dialing in ristretto");
      assertThat(rows).extracting(EvidenceRow::title).doesNotContain("Dialing in espresso");
    }
  }

  @Test
  void rowsFromKeptRecordsAndRenderedChunksEqualThoseOfANewRetriever() throws Exception {
    try (BrainIndex index = TestVault.build(dir)) {
      var warm = new Retriever(index);
      var queries =
          List.of("espresso crema", "sourdough starter rye", "zeolite", "#coffee", "tomato plants");
      for (String query : queries) {
        warm.search(query, SearchOptions.builder().lanes(Lane.BM25).build());
      }
      for (String query : queries) {
        var options = SearchOptions.builder().lanes(Lane.BM25, Lane.EXACT_TAG).build();
        assertThat(warm.search(query, options).rows())
            .as(query)
            .isNotEmpty()
            .isEqualTo(new Retriever(index).search(query, options).rows());
      }
    }
  }

  @Test
  void theLeastRecentlyUsedGoFirst() throws Exception {
    try (BrainIndex index = TestVault.build(dir)) {
      var searcher = IndexInternals.acquireSearcher(index);
      try {
        var reader = searcher.getIndexReader();
        var cache = new StoredDocCache<String>(2);
        cache.put(StoredDocCache.key(reader, 0), "a");
        cache.put(StoredDocCache.key(reader, 1), "b");
        assertThat(cache.get(StoredDocCache.key(reader, 0))).isEqualTo("a"); // used: kept
        cache.put(StoredDocCache.key(reader, 2), "c");
        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.get(StoredDocCache.key(reader, 1))).isNull();
        assertThat(cache.get(StoredDocCache.key(reader, 0))).isEqualTo("a");
        assertThat(cache.get(StoredDocCache.key(reader, 2))).isEqualTo("c");
      } finally {
        IndexInternals.releaseSearcher(index, searcher);
      }
    }
  }
}
