package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedding cache: an input embedded once is not embedded again, whatever happened to its chunk
 * in between, and a broken cache only costs embedding time. Counts are asserted, not times.
 */
class EmbeddingCacheTest {

  private static Embedder model;

  @TempDir Path data;
  @TempDir Path vault;

  private IndexConfig config;
  private CountingEmbedder embedder;
  private BrainIndex index;

  @BeforeAll
  static void loadModel() {
    model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
  }

  @AfterAll
  static void closeModel() {
    model.close();
  }

  @BeforeEach
  void openIndex() throws IOException {
    embedder = new CountingEmbedder(model);
    // A small chunk budget so one note spans several chunks.
    config = IndexConfig.defaults(data).withChunking(48, 0);
    index = BrainIndex.open(config, embedder);
    write(
        "lucene.md",
        """
        # Lucene notes

        Lucene is a search library written in Java, used by Solr and Elasticsearch alike.

        ## Indexing

        An IndexWriter adds documents to segments; a commit makes them durable and visible.

        ## Vectors

        HNSW graphs give approximate nearest neighbours over dense embeddings of passages.
        """);
    write("coffee.md", "# Coffee\n\nA burr grinder gives an even grind for espresso.\n");
  }

  @AfterEach
  void closeIndex() throws IOException {
    index.close();
  }

  @Test
  void removeAndReAddOfTheSampleVaultEmbedsNothing() throws IOException {
    index.close(); // the default chunk budget: the vault as `brain index` chunks it
    config = IndexConfig.defaults(data.resolve("sample"));
    index = BrainIndex.open(config, embedder);
    var sample = CollectionRoot.of("vault", SampleVaultSyncTest.sampleVault());
    SyncReport first = index.syncCollections(List.of(sample), SyncListener.NONE);
    assertThat(first.chunksEmbedded()).isPositive();
    assertThat(index.removeCollection("vault")).isEqualTo(first.added());
    embedder.reset();

    SyncReport second = index.syncCollections(List.of(sample), SyncListener.NONE);

    assertThat(second.added()).isEqualTo(first.added());
    assertThat(second.chunksEmbedded()).isZero();
    assertThat(embedder.calls()).isZero();
    assertThat(second.chunksFromCache()).isEqualTo(second.chunksWritten());
    assertThat(second.chunksReused()).isEqualTo(second.chunksWritten());
    IndexStats stats = index.stats();
    assertThat(stats.embeddedChunks()).isEqualTo(stats.chunks());
  }

  @Test
  void aRebuiltIndexEmbedsNothing() throws IOException {
    SyncReport first = sync("v");
    reopen(true);

    SyncReport rebuilt = sync("v");

    assertThat(rebuilt.added()).isEqualTo(first.added());
    assertThat(rebuilt.chunksEmbedded()).isZero();
    assertThat(embedder.calls()).isZero();
    assertThat(rebuilt.chunksFromCache()).isEqualTo(first.chunksWritten());
  }

  @Test
  void aRenameOrMoveEmbedsNothingEvenAcrossTwoSyncs() throws IOException {
    sync("v");
    embedder.reset();

    Files.move(vault.resolve("lucene.md"), vault.resolve("search.md")); // rename, one sync
    SyncReport renamed = sync("v");
    assertThat(renamed.added()).isEqualTo(1);
    assertThat(renamed.deleted()).isEqualTo(1);
    assertThat(renamed.chunksEmbedded()).isZero();

    Path outside = Files.createTempDirectory(data, "away");
    Files.move(vault.resolve("search.md"), outside.resolve("search.md")); // gone for one sync
    assertThat(sync("v").deleted()).isEqualTo(1);
    Files.createDirectories(vault.resolve("archive"));
    Files.move(outside.resolve("search.md"), vault.resolve("archive/search.md")); // back, moved
    SyncReport back = sync("v");

    assertThat(back.added()).isEqualTo(1);
    assertThat(back.chunksEmbedded()).isZero();
    assertThat(back.chunksFromCache()).isEqualTo(back.chunksWritten());
    assertThat(embedder.calls()).isZero();
  }

  @Test
  void aChangedChunkEmbedsOnlyThatChunk() throws IOException {
    SyncReport first = sync("v");
    embedder.reset();
    String text = Files.readString(vault.resolve("lucene.md"));
    write("lucene.md", text.replace("durable and visible", "durable, then visible"));

    SyncReport changed = sync("v");

    assertThat(changed.updated()).isEqualTo(1);
    assertThat(changed.chunksEmbedded()).isEqualTo(1);
    assertThat(embedder.passages()).singleElement().asString().contains("durable, then visible");
    assertThat(changed.chunksReused()).isEqualTo(changed.chunksWritten() - 1);
    assertThat(first.chunksWritten()).isGreaterThan(2);
  }

  @Test
  void aSecondCollectionOfTheSameFilesEmbedsNothing() throws IOException {
    SyncReport first = sync("v");
    index.removeCollection("v"); // not even the index holds the vectors now
    embedder.reset();
    Path copy = Files.createTempDirectory(data, "copy");
    try (Stream<Path> files = Files.list(vault)) {
      for (Path f : files.toList()) {
        Files.copy(f, copy.resolve(f.getFileName()));
      }
    }

    SyncReport second =
        index.syncCollections(List.of(CollectionRoot.of("copy", copy)), SyncListener.NONE);

    assertThat(second.added()).isEqualTo(first.added());
    assertThat(second.chunksEmbedded()).isZero();
    assertThat(embedder.calls()).isZero();
  }

  @Test
  void aCorruptCacheFallsBackToEmbeddingAndIsStartedAnew() throws IOException {
    SyncReport first = sync("v");
    index.removeCollection("v");
    index.close();
    try (Stream<Path> files = Files.list(config.embeddingCacheDirectory())) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.write(f, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}); // every file garbage
      }
    }
    embedder = new CountingEmbedder(model);
    index = BrainIndex.open(config, embedder);

    SyncReport afterCorruption = sync("v");

    assertThat(afterCorruption.added()).isEqualTo(first.added());
    assertThat(afterCorruption.chunksEmbedded()).isEqualTo(first.chunksEmbedded());
    assertThat(afterCorruption.chunksFromCache()).isZero();
    // The new cache works: a remove and re-add embeds nothing.
    index.removeCollection("v");
    embedder.reset();
    assertThat(sync("v").chunksEmbedded()).isZero();
  }

  @Test
  void aCacheLockedByAnotherWriterIsLeftAloneAndTheSyncEmbeds() throws IOException {
    SyncReport first = sync("v");
    index.removeCollection("v");
    index.close();
    try (var other = FSDirectory.open(config.embeddingCacheDirectory());
        var lock = other.obtainLock(IndexWriter.WRITE_LOCK_NAME)) {
      lock.ensureValid(); // another process's writer, as far as this one can tell
      embedder = new CountingEmbedder(model);
      index = BrainIndex.open(config, embedder);

      SyncReport locked = sync("v");

      assertThat(locked.chunksEmbedded()).isEqualTo(first.chunksEmbedded());
      assertThat(locked.chunksFromCache()).isZero();
      index.removeCollection("v");
      index.close();
    }
    embedder = new CountingEmbedder(model);
    index = BrainIndex.open(config, embedder);
    assertThat(sync("v").chunksEmbedded()).as("the locked cache kept its entries").isZero();
  }

  @Test
  void aMissingCacheFallsBackToEmbedding() throws IOException {
    SyncReport first = sync("v");
    index.removeCollection("v");
    index.close();
    deleteTree(config.embeddingCacheDirectory());
    embedder = new CountingEmbedder(model);
    index = BrainIndex.open(config, embedder);

    SyncReport again = sync("v");

    assertThat(again.chunksEmbedded()).isEqualTo(first.chunksEmbedded());
    assertThat(again.chunksFromCache()).isZero();
    IndexStats stats = index.stats();
    assertThat(stats.embeddedChunks()).isEqualTo(stats.chunks());
  }

  @Test
  void anIndexWithoutACacheSeedsOneBeforeItsChunksGo() throws IOException {
    SyncReport first = sync("v");
    index.close();
    deleteTree(config.embeddingCacheDirectory()); // an index synced before caches existed
    embedder = new CountingEmbedder(model);
    index = BrainIndex.open(config, embedder);
    index.removeCollection("v");

    SyncReport again = sync("v");

    assertThat(again.added()).isEqualTo(first.added());
    assertThat(again.chunksEmbedded()).isZero();
    assertThat(embedder.calls()).isZero();
  }

  @Test
  void pruningKeepsUsedEntriesAndDropsOrphansAfterTheGracePeriod() throws IOException {
    sync("v");
    String kept = embedHashOf("coffee.md");
    String dropped = embedHashOf("lucene.md");
    Files.delete(vault.resolve("lucene.md"));
    sync("v"); // deletes a record: its vectors are orphaned from now
    index.close();
    Instant now = Instant.now();

    try (var reader = BrainIndex.openReadOnly(config, embedder);
        var cache = EmbeddingCache.open(config)) {
      var searcher = IndexInternals.acquireSearcher(reader);
      try {
        assertThat(cache.prune(searcher, now.plus(EmbeddingCache.GRACE).minusSeconds(60)))
            .extracting(EmbeddingCache.Pruned::deleted)
            .isEqualTo(0L);
        assertThat(cache.find(dropped)).isNotNull();

        EmbeddingCache.Pruned later =
            cache.prune(searcher, now.plus(EmbeddingCache.GRACE).plusSeconds(60));

        assertThat(later.deleted()).isPositive();
        assertThat(later.orphaned()).isZero();
        assertThat(cache.find(dropped)).isNull();
        assertThat(cache.find(kept)).isNotNull();
      } finally {
        IndexInternals.releaseSearcher(reader, searcher);
      }
    }
    index = BrainIndex.open(config, embedder); // for closeIndex
  }

  /** The embedding-input hash of the first chunk of the note at {@code relative}. */
  private String embedHashOf(String relative) throws IOException {
    var detail = index.get("note:v/" + relative).orElseThrow();
    return EmbeddingInput.hash(detail.record(), detail.chunks().getFirst());
  }

  private SyncReport sync(String name) throws IOException {
    return index.syncCollections(List.of(CollectionRoot.of(name, vault)), SyncListener.NONE);
  }

  /** Closes the index and opens it again, deleting it first when {@code rebuild}. */
  private void reopen(boolean rebuild) throws IOException {
    index.close();
    if (rebuild) {
      BrainIndex.deleteIndex(config);
    }
    embedder = new CountingEmbedder(model);
    index = BrainIndex.open(config, embedder);
  }

  private void write(String relative, String text) throws IOException {
    Path file = vault.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
