package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Incremental sync over a small vault with the real importers, chunker and model. */
class SyncTest {

  private static Embedder model;

  @TempDir Path data;
  @TempDir Path vault;

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
    // A small chunk budget so a short note spans several chunks.
    var config = IndexConfig.defaults(data).withChunking(48, 0);
    index = BrainIndex.open(config, embedder);
    writeVault();
  }

  @AfterEach
  void closeIndex() throws IOException {
    index.close();
  }

  private void writeVault() throws IOException {
    write(
        "projects/lucene.md",
        """
        ---
        title: Lucene notes
        tags: [search, java]
        ---
        # Lucene notes

        Lucene is a search library. See [[search-engines]] for the wider picture.

        ## Indexing

        An IndexWriter adds documents to segments; a commit makes them durable and visible.

        ## Vectors

        HNSW graphs give approximate nearest neighbours over dense embeddings.
        """);
    write(
        "search-engines.md",
        """
        # Search engines

        Inverted indexes, BM25 and learned embeddings. #search
        """);
    write("daily/2026-01-05.md", "# Monday\n\nRead about [[lucene]] segments and merges.\n");
    write(
        "papers.jsonl",
        """
        {"_id": "p1", "title": "Dense retrieval", "text": "Dual encoders map queries and passages to vectors."}
        {"_id": "p2", "title": "BM25", "text": "A probabilistic ranking function with term saturation."}
        {"_id": "p3", "title": "Fusion", "text": "Reciprocal rank fusion combines ranked lists."}
        """);
    write("broken.pdf", "%PDF-1.7\nthis is not really a pdf\n");
    Files.write(
        vault.resolve("model.stl"), new byte[] {(byte) 0x89, 0, 0, 1, 2}); // an unknown type
  }

  private void write(String relative, String text) throws IOException {
    Path file = vault.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  private SyncReport sync() throws IOException {
    return index.syncCollections(List.of(CollectionRoot.of("v", vault)), SyncListener.NONE);
  }

  @Test
  void indexesEveryRecordWithItsChunksAndReportsSkippedAndMalformedFiles() throws IOException {
    SyncReport report = sync();

    assertThat(report.added()).isEqualTo(6);
    assertThat(report.updated()).isZero();
    assertThat(report.unchanged()).isZero();
    assertThat(report.files()).isEqualTo(6);
    assertThat(report.skipped())
        .extracting(i -> i.file().getFileName().toString())
        .containsExactly("model.stl");
    assertThat(report.failed())
        .extracting(i -> i.file().getFileName().toString())
        .containsExactly("broken.pdf");
    assertThat(report.failed().get(0).reason()).isNotBlank();
    assertThat(report.chunksWritten()).isGreaterThan(6);
    assertThat(report.chunksEmbedded()).isEqualTo(embedder.passages().size());
    assertThat(report.chunksEmbedded() + report.chunksReused()).isEqualTo(report.chunksWritten());
    assertThat(IndexInvariants.assertWhole(index)).isEqualTo(6);
    assertThat(index.metadata().lastSyncAt()).isNotNull();
  }

  @Test
  void tellsTheListenerWhatTheReportSums() throws IOException {
    var events = new RecordingListener();

    SyncReport report = index.sync(List.of(vault), events);

    assertThat(events.planned).isEqualTo(6);
    assertThat(events.started).isEqualTo(6); // records announced before they are processed
    assertThat(events.done).isEqualTo(4); // files that imported
    assertThat(events.failedOrSkipped).isEqualTo(2);
    assertThat(events.changes.get(SyncListener.Change.ADDED)).isEqualTo(report.added());
    assertThat(events.embedded).isEqualTo(report.chunksEmbedded());
    assertThat(events.commits).isPositive();
  }

  /** Counts what a sync reports through its listener. */
  private static final class RecordingListener implements SyncListener {
    int planned;
    int started;
    int done;
    int failedOrSkipped;
    long embedded;
    int commits;
    final Map<Change, Integer> changes = new EnumMap<>(Change.class);

    @Override
    public void filesPlanned(int files) {
      planned = files;
    }

    @Override
    public void fileStarted(Path file, int records) {
      started += records;
    }

    @Override
    public void fileDone(Path file, int records) {
      done++;
    }

    @Override
    public void fileFailed(Path file, String reason, boolean skipped) {
      failedOrSkipped++;
    }

    @Override
    public void recordDone(String key, Change change) {
      changes.merge(change, 1, Integer::sum);
    }

    @Override
    public void chunksEmbedded(int count) {
      embedded += count;
    }

    @Override
    public void committed(int recordsWritten) {
      commits++;
    }
  }

  @Test
  void reSyncOfAnUnchangedCorpusCallsTheEmbedderZeroTimes() throws IOException {
    sync();
    embedder.reset();

    SyncReport again = sync();

    assertThat(embedder.calls()).isZero();
    assertThat(again.unchanged()).isEqualTo(6);
    assertThat(again.added() + again.updated() + again.deleted()).isZero();
    assertThat(again.chunksEmbedded()).isZero();
    assertThat(again.chunksWritten()).isZero();
  }

  @Test
  void editingANoteReembedsOnlyItsChangedChunks() throws IOException {
    sync();
    List<Chunk> before = index.get("note:v/projects/lucene.md").orElseThrow().chunks();
    assertThat(before).hasSizeGreaterThanOrEqualTo(3);
    embedder.reset();

    Path note = vault.resolve("projects/lucene.md");
    Files.writeString(
        note,
        Files.readString(note)
            .replace("approximate nearest neighbours", "fast approximate nearest neighbours"));
    SyncReport report = sync();

    assertThat(report.updated()).isEqualTo(1);
    assertThat(report.unchanged()).isEqualTo(5);
    // The model reads the record's title, a blank line, then the chunk text.
    assertThat(embedder.passages())
        .singleElement()
        .asString()
        .startsWith("Lucene notes\n\n")
        .contains("fast approximate");
    assertThat(report.chunksReused()).isEqualTo(before.size() - 1);
    List<Chunk> after = index.get("note:v/projects/lucene.md").orElseThrow().chunks();
    assertThat(after).hasSameSizeAs(before);
    assertThat(after.getLast().text()).contains("fast approximate");
    assertThat(IndexInvariants.assertWhole(index)).isEqualTo(6);
  }

  @Test
  void retitlingANoteReembedsEveryChunkOfItAndNothingElse() throws IOException {
    sync();
    int chunks = index.get("note:v/projects/lucene.md").orElseThrow().chunks().size();
    embedder.reset();

    Path note = vault.resolve("projects/lucene.md");
    Files.writeString(
        note, Files.readString(note).replace("title: Lucene notes", "title: Lucene handbook"));
    SyncReport report = sync();

    assertThat(report.updated()).isEqualTo(1);
    assertThat(report.chunksReused()).isZero();
    assertThat(embedder.passages())
        .hasSize(chunks)
        .allSatisfy(p -> assertThat(p).startsWith("Lucene handbook\n\n"));
    assertThat(IndexInvariants.assertWhole(index)).isEqualTo(6);
  }

  @Test
  void deletingAFileDeletesItsRecordAndChunks() throws IOException {
    sync();
    Files.delete(vault.resolve("search-engines.md"));

    SyncReport report = sync();

    assertThat(report.deleted()).isEqualTo(1);
    assertThat(report.unchanged()).isEqualTo(5);
    assertThat(index.get("note:v/search-engines.md")).isEmpty();
    assertThat(chunkCount("note:v/search-engines.md")).isZero();
    assertThat(IndexInvariants.assertWhole(index)).isEqualTo(5);
  }

  @Test
  void removingAnEntryFromAJsonlFileDeletesOnlyThatRecord() throws IOException {
    sync();
    Path jsonl = vault.resolve("papers.jsonl");
    List<String> lines = new ArrayList<>(Files.readAllLines(jsonl));
    lines.removeIf(l -> l.contains("\"p2\""));
    Files.write(jsonl, lines);
    embedder.reset();

    SyncReport report = sync();

    assertThat(report.deleted()).isEqualTo(1);
    assertThat(report.unchanged()).isEqualTo(5);
    assertThat(embedder.calls()).isZero();
    assertThat(index.get("doc:p2")).isEmpty();
    assertThat(index.get("doc:p1")).isPresent();
    assertThat(index.get("doc:p3")).isPresent();
  }

  @Test
  void aKeyProducedTwiceKeepsTheFirstRecordAndWarnsAboutTheLaterFile() throws IOException {
    write(
        "zz-more.jsonl",
        """
        {"_id": "p1", "title": "Another p1", "text": "A different text under a key already used."}
        {"_id": "p4", "title": "Rerankers", "text": "Cross-encoders rescore the top hits."}
        """);

    SyncReport report = sync();

    assertThat(report.added()).isEqualTo(7);
    assertThat(report.warnings())
        .singleElement()
        .satisfies(w -> assertThat(w.file().getFileName().toString()).isEqualTo("zz-more.jsonl"))
        .satisfies(w -> assertThat(w.reason()).contains("doc:p1"));
    assertThat(index.get("doc:p1").orElseThrow().record().title()).isEqualTo("Dense retrieval");
  }

  @Test
  void aFileThatCannotBeReadAnyMoreKeepsItsEarlierRecords() throws IOException {
    sync();
    Files.writeString(vault.resolve("papers.jsonl"), "this is not json\nneither is this\n");

    SyncReport report = sync();

    assertThat(report.failed())
        .extracting(i -> i.file().getFileName().toString())
        .contains("papers.jsonl");
    assertThat(report.deleted()).isZero();
    assertThat(index.get("doc:p1")).isPresent();
  }

  @Test
  void getReturnsTheRecordWithItsChunksLinksAndBacklinks() throws IOException {
    sync();

    RecordDetail lucene = index.get("note:v/projects/lucene.md").orElseThrow();

    CorpusRecord record = lucene.record();
    assertThat(record.title()).isEqualTo("Lucene notes");
    assertThat(record.tags()).contains("search", "java");
    assertThat(record.links()).contains("note:v/search-engines.md");
    assertThat(record.text()).contains("HNSW graphs");
    assertThat(record.dateSource()).isEqualTo(CorpusRecord.DATE_FILE_TIME);
    assertThat(record.updatedAt()).isEqualTo(record.createdAt());
    assertThat(lucene.backlinks()).containsExactly("note:v/daily/2026-01-05.md");
    assertThat(lucene.chunks())
        .extracting(Chunk::ordinal)
        .containsExactly(
            lucene.chunks().stream().map(Chunk::ordinal).sorted().toArray(Integer[]::new));
    for (Chunk chunk : lucene.chunks()) {
      assertThat(chunk.chunkId()).isEqualTo("note:v/projects/lucene.md#" + chunk.ordinal());
      assertThat(chunk.role()).isEqualTo(ChunkRole.RAW);
      assertThat(record.text().substring(chunk.startChar(), chunk.endChar()))
          .isEqualTo(chunk.text());
      assertThat(chunk.textHash()).isEqualTo(CorpusRecord.sha256(chunk.text()));
    }
    assertThat(lucene.chunks()).anySatisfy(c -> assertThat(c.headingPath()).contains("Vectors"));

    RecordDetail engines = index.get("note:v/search-engines.md").orElseThrow();
    assertThat(engines.backlinks()).containsExactly("note:v/projects/lucene.md");
    assertThat(index.get("note:v/nope.md")).isEmpty();
  }

  @Test
  void statsCountRecordsByKindSourceTypeAndTag() throws IOException {
    sync();

    IndexStats stats = index.stats();

    assertThat(stats.records()).isEqualTo(6);
    assertThat(stats.chunks()).isGreaterThan(6);
    assertThat(stats.bySourceType()).containsEntry("note", 3L).containsEntry("doc", 3L);
    assertThat(stats.byKind().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(6);
    assertThat(stats.topTags()).first().isEqualTo(new IndexStats.TagCount("search", 2));
    assertThat(stats.sizeBytes()).isPositive();
    assertThat(stats.metadata().modelId()).isEqualTo("bge-small-en-v1.5");
    assertThat(stats.lastSyncAt()).isNotNull();
  }

  private long chunkCount(String key) throws IOException {
    var searcher = index.acquireSearcher();
    try {
      return searcher.count(new TermQuery(new Term(IndexFields.PARENT_KEY, key)));
    } finally {
      index.releaseSearcher(searcher);
    }
  }
}
