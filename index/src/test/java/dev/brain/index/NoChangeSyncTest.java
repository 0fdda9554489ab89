package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sync decides from each file's stamp (size, modification and change time, file key) whether to
 * open it: an unchanged folder is synced without reading a byte of any file, across restarts. Reads
 * are counted where the sync hands a file to the importers.
 */
class NoChangeSyncTest {

  private static Embedder model;

  @TempDir Path data;
  @TempDir Path vault;

  private final List<Path> reads = new CopyOnWriteArrayList<>();
  private BrainIndex index;
  private CollectionRoot notes;

  @BeforeAll
  static void loadModel() {
    model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
  }

  @AfterAll
  static void closeModel() {
    model.close();
  }

  @BeforeEach
  void vault() throws IOException {
    write(
        "espresso.md",
        """
        ---
        created: 2024-03-01
        updated: 2024-03-02
        ---
        # Espresso

        Grind finer when the shot runs fast. See [[grinders]].
        """);
    write("grinders.md", "# Grinders\n\nBurr grinders keep the grind even.\n");
    write("kettle.txt", "A gooseneck kettle pours slowly. #brewing\n");
    write(
        "papers.jsonl",
        """
        {"_id": "p1", "title": "Crema", "text": "Crema is an emulsion of oils and gas."}
        not json at all
        {"_id": "p2", "title": "Tamping", "text": "Tamp evenly at about fifteen kilograms."}
        """);
    notes = CollectionRoot.of("notes", vault);
    index = open();
  }

  @AfterEach
  void closeIndex() throws IOException {
    index.close();
  }

  @Test
  void anUnchangedFolderIsSyncedWithoutOpeningAnyFileEvenAfterARestart() throws IOException {
    settle();
    SyncReport first = sync();
    assertThat(reads).hasSize(4);
    assertThat(first.added()).isEqualTo(5);
    assertThat(first.warnings()).hasSize(1);

    index.close();
    index = open();
    SyncReport again = sync();

    assertThat(reads).as("files opened by the second sync").isEmpty();
    assertThat(first.filesRead()).isEqualTo(4);
    assertThat(again.filesRead()).as("the report's count of files read").isZero();
    assertThat(again.files()).isEqualTo(4);
    assertThat(again.unchanged()).isEqualTo(5);
    assertThat(again.added() + again.updated() + again.deleted()).isZero();
    assertThat(again.chunksWritten()).isZero();
    assertThat(again.warnings())
        .as("the JSONL file's bad line is still reported")
        .extracting(SyncReport.FileIssue::reason)
        .isEqualTo(first.warnings().stream().map(SyncReport.FileIssue::reason).toList());
    assertThat(index.collections().getFirst().warnings()).hasSize(1);
    assertThat(index.get("note:notes/espresso.md")).isPresent();
  }

  @Test
  void anUnchangedSyncCommitsNothingToTheIndexOrTheEmbeddingCacheAndKeepsTheLastSyncTime()
      throws IOException {
    settle();
    sync();
    index.close();
    index = open();
    IndexConfig config = IndexConfig.defaults(data);
    long indexCommit = lastCommit(config.directory());
    long cacheCommit = lastCommit(config.embeddingCacheDirectory());
    Instant synced = index.metadata().lastSyncAt();
    Instant collectionSynced = index.collections().getFirst().lastSyncAt();

    SyncReport again = sync();

    assertThat(again.unchanged()).isEqualTo(5);
    assertThat(lastCommit(config.directory())).as("the index's commit").isEqualTo(indexCommit);
    assertThat(lastCommit(config.embeddingCacheDirectory()))
        .as("the embedding cache's commit")
        .isEqualTo(cacheCommit);
    assertThat(index.metadata().lastSyncAt()).isEqualTo(synced);
    assertThat(index.collections().getFirst().lastSyncAt()).isEqualTo(collectionSynced);

    Files.delete(vault.resolve("kettle.txt"));
    SyncReport changed = sync();

    assertThat(changed.deleted()).isEqualTo(1);
    assertThat(lastCommit(config.directory())).isGreaterThan(indexCommit);
    assertThat(index.collections().getFirst().lastSyncAt()).isAfter(collectionSynced);
    assertThat(index.collections().getFirst().files()).isEqualTo(3);
  }

  @Test
  void anUnchangedSyncOfAnIndexThatLoadsItsModelOnNeedNeverLoadsIt() throws IOException {
    settle();
    sync();
    index.close();
    index = BrainIndex.open(IndexConfig.defaults(data)); // no model handed over: loaded on need
    index.readFilesThrough(this::counted);

    SyncReport again = sync();

    assertThat(again.unchanged()).isEqualTo(5);
    assertThat(reads).isEmpty();
    assertThat(index.embedderLoaded()).as("the embedding model was loaded").isFalse();
  }

  @Test
  void aReadOnlyIndexAnswersAnUnchangedSyncWithoutAWriterAndDeclinesOneWithSomethingToWrite()
      throws IOException {
    settle();
    sync();
    long commit = lastCommit(IndexConfig.defaults(data).directory());
    // The writable index stays open: it holds the write lock, which the check never takes.
    try (var reader = BrainIndex.openReadOnly(IndexConfig.defaults(data), null)) {
      reader.readFilesThrough(this::counted);
      reads.clear();

      SyncReport unchanged = reader.syncIfUnchanged(List.of(notes)).orElseThrow();

      assertThat(unchanged.unchanged()).isEqualTo(5);
      assertThat(unchanged.filesRead()).isZero();
      assertThat(reads).isEmpty();
      assertThat(unchanged.warnings()).hasSize(1);

      Files.delete(vault.resolve("kettle.txt"));
      assertThat(reader.syncIfUnchanged(List.of(notes))).as("a file is gone").isEmpty();
      write("moka.md", "# Moka pot\n\nThe moka pot brews on the stove.\n");
      assertThat(reader.syncIfUnchanged(List.of(notes))).as("a file is new").isEmpty();

      assertThat(reader.embedderLoaded()).isFalse();
      assertThat(lastCommit(IndexConfig.defaults(data).directory())).isEqualTo(commit);
      assertThat(reader.stats().records()).isEqualTo(5);
    }
    SyncReport real = sync();
    assertThat(real.deleted()).isEqualTo(1);
    assertThat(real.added()).isEqualTo(1);
  }

  /** The generation of the last commit in a Lucene index folder. */
  private static long lastCommit(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return org.apache.lucene.index.SegmentInfos.getLastCommitGeneration(
          files.map(f -> f.getFileName().toString()).toArray(String[]::new));
    }
  }

  @Test
  void aTouchedFileIsReadAgainWithoutRewritingItsRecordThenTrustedWithItsNewStamp()
      throws IOException {
    settle();
    sync();
    Path espresso = vault.resolve("espresso.md");
    Files.setLastModifiedTime(espresso, FileTime.from(Instant.now().plusSeconds(-60)));
    settle();

    SyncReport touched = sync();
    assertThat(reads).containsExactly(espresso);
    assertThat(touched.updated()).isZero();
    assertThat(touched.unchanged()).isEqualTo(5);
    assertThat(touched.chunksEmbedded()).isZero();

    SyncReport after = sync();
    assertThat(reads).as("the touched file's new stamp was stored").isEmpty();
    assertThat(after.unchanged()).isEqualTo(5);
  }

  @Test
  void aFileReplacedWithTheSameSizeAndModificationTimeIsReadAgain() throws IOException {
    settle();
    sync();
    Path kettle = vault.resolve("kettle.txt");
    String old = Files.readString(kettle);
    String same = old.replace("slowly", "gently"); // as long
    assertThat(same).hasSameSizeAs(old);
    Path replacement = vault.resolve("kettle.tmp");
    Files.writeString(replacement, same);
    Files.setLastModifiedTime(replacement, Files.getLastModifiedTime(kettle));
    Files.move(replacement, kettle, StandardCopyOption.REPLACE_EXISTING);
    settle();

    SyncReport report = sync();

    assertThat(reads).containsExactly(kettle);
    assertThat(report.updated()).isEqualTo(1);
  }

  @Test
  void aRenameReadsTheNotesAgainSoTheirLinksFollowIt() throws IOException {
    settle();
    sync();
    Files.createDirectories(vault.resolve("gear"));
    Files.move(vault.resolve("grinders.md"), vault.resolve("gear/grinders.md"));

    SyncReport report = sync();

    assertThat(report.deleted()).isEqualTo(1); // the old key
    assertThat(report.added()).isEqualTo(1);
    assertThat(reads).as("every file: the names the links resolve against changed").hasSize(4);
    assertThat(index.get("note:notes/espresso.md").orElseThrow().record().links())
        .contains("note:notes/gear/grinders.md");
  }

  @Test
  void aDeletedFileLosesItsRecordsAndTheOthersAreTrustedAgainAfterOneReading() throws IOException {
    settle();
    sync();
    Files.delete(vault.resolve("papers.jsonl"));

    SyncReport report = sync();

    assertThat(report.deleted()).isEqualTo(2);
    assertThat(report.warnings()).isEmpty();
    assertThat(index.get("doc:p1")).isEmpty();
    sync();
    assertThat(reads).isEmpty();
    assertThat(index.stats().records()).isEqualTo(3);
  }

  @Test
  void aStampTakenWithinTwoSecondsOfTheFilesLastChangeIsNotTrusted() throws IOException {
    Path kettle = vault.resolve("kettle.txt");
    Instant changed = Files.getLastModifiedTime(kettle).toInstant();

    assertThat(FileStates.stamp(kettle, changed.plusMillis(500))).isEmpty();
    assertThat(FileStates.stamp(kettle, Instant.now().plusSeconds(60)))
        .startsWith(Files.size(kettle) + "/");
    assertThat(FileStates.stamp(vault.resolve("missing.md"), Instant.now())).isNull();
  }

  @Test
  void aNewChunkBudgetReadsTheFilesAgain() throws IOException {
    settle();
    sync();
    index.close();
    index = BrainIndex.open(IndexConfig.defaults(data).withChunking(48, 0), model);
    index.readFilesThrough(this::counted);

    SyncReport report = sync();

    assertThat(reads).hasSize(4);
    assertThat(report.updated()).isEqualTo(5);
  }

  @Test
  void aRecordTheChunkCapCutIsStillReportedTruncatedWithoutReadingItsFile() throws IOException {
    var log = new StringBuilder("# Log\n\n");
    for (int i = 0; i < 60; i++) {
      log.append("Entry ").append(i).append(": the grinder was cleaned and recalibrated.\n\n");
    }
    write("log.md", log.toString());
    settle();
    index.close();
    index =
        BrainIndex.open(
            IndexConfig.defaults(data).withChunking(48, 0).withMaxChunksPerRecord(2), model);
    index.readFilesThrough(this::counted);
    SyncReport first = sync();
    assertThat(first.truncated()).hasSize(1);

    SyncReport again = sync();

    assertThat(reads).isEmpty();
    assertThat(again.truncated()).isEqualTo(first.truncated());
    assertThat(index.collections().getFirst().truncated()).hasSize(1);
  }

  private BrainIndex open() throws IOException {
    BrainIndex opened = BrainIndex.open(IndexConfig.defaults(data), model);
    opened.readFilesThrough(this::counted);
    return opened;
  }

  private RecordPreparer.FileReader counted(RecordPreparer.FileReader importers) {
    return (file, root, collection) -> {
      reads.add(file);
      return importers.read(file, root, collection);
    };
  }

  /** Syncs the vault, counting the files read from now on. */
  private SyncReport sync() throws IOException {
    reads.clear();
    return index.syncCollections(List.of(notes), SyncListener.NONE);
  }

  /**
   * Waits until the vault's last change is more than {@link FileStates#RACY} old, as a file saved a
   * few seconds before a sync is: a stamp taken sooner is checked by reading the file again.
   */
  private void settle() throws IOException {
    Instant latest = Instant.EPOCH;
    var changes = new ArrayList<Instant>();
    try (Stream<Path> files = Files.walk(vault)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        changes.add(Files.getLastModifiedTime(f).toInstant());
        if (Files.getAttribute(f, "unix:ctime") instanceof FileTime t) {
          changes.add(t.toInstant());
        }
      }
    }
    for (Instant c : changes) {
      latest = c.isAfter(latest) ? c : latest;
    }
    long wait = latest.plus(FileStates.RACY).toEpochMilli() - System.currentTimeMillis() + 50;
    if (wait > 0) {
      try {
        Thread.sleep(Math.min(wait, 5_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void write(String relative, String text) throws IOException {
    Path file = vault.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
