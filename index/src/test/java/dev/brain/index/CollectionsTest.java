package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Collections: named roots whose keys, syncs and removal never touch another collection. */
class CollectionsTest {

  private static Embedder model;

  @TempDir Path data;
  @TempDir Path folders;

  private BrainIndex index;
  private Path a;
  private Path b;

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
    index = BrainIndex.open(IndexConfig.defaults(data), model);
    a = Files.createDirectories(folders.resolve("work"));
    b = Files.createDirectories(folders.resolve("home"));
    Files.writeString(
        a.resolve("README.md"), "# Work readme\n\nThe quarterly roadmap for the team.\n");
    Files.writeString(
        b.resolve("README.md"), "# Home readme\n\nThe roadmap for the garden shed.\n");
  }

  @AfterEach
  void closeIndex() throws IOException {
    index.close();
  }

  private SyncReport sync(CollectionRoot... collections) throws IOException {
    return index.syncCollections(List.of(collections), SyncListener.NONE);
  }

  private List<String> search(String word) throws IOException {
    IndexSearcher searcher = index.acquireSearcher();
    try {
      var keys = new ArrayList<String>();
      var query = new TermQuery(new Term(IndexFields.TEXT, word));
      for (ScoreDoc hit : searcher.search(query, 10).scoreDocs) {
        keys.add(searcher.storedFields().document(hit.doc).get(IndexFields.PARENT_KEY));
      }
      return keys;
    } finally {
      index.releaseSearcher(searcher);
    }
  }

  @Test
  void twoCollectionsWithTheSameRelativePathKeepBothAndRemovingOneLeavesTheOther()
      throws IOException {
    sync(CollectionRoot.of("work", a));
    SyncReport second = sync(CollectionRoot.of("home", b));

    assertThat(second.added()).isEqualTo(1);
    assertThat(second.deleted()).isZero();
    assertThat(index.get("note:work/README.md")).isPresent();
    assertThat(index.get("note:home/README.md")).isPresent();
    assertThat(search("roadmap"))
        .containsExactlyInAnyOrder("note:work/README.md", "note:home/README.md");

    assertThat(index.removeCollection("work")).isEqualTo(1);

    assertThat(index.get("note:work/README.md")).isEmpty();
    RecordDetail home = index.get("note:home/README.md").orElseThrow();
    assertThat(home.chunks()).isNotEmpty();
    assertThat(search("roadmap")).containsExactly("note:home/README.md");
    assertThat(IndexInvariants.assertWhole(index)).isEqualTo(1);
    assertThat(index.collections()).extracting(CollectionStatus::name).containsExactly("home");
  }

  @Test
  void aSyncOfOneCollectionDeletesOnlyItsOwnVanishedRecords() throws IOException {
    sync(CollectionRoot.of("work", a), CollectionRoot.of("home", b));
    Files.delete(a.resolve("README.md"));
    Files.delete(b.resolve("README.md"));

    SyncReport report = sync(CollectionRoot.of("work", a));

    assertThat(report.deleted()).isEqualTo(1);
    assertThat(index.get("note:work/README.md")).isEmpty();
    assertThat(index.get("note:home/README.md")).isPresent();
  }

  @Test
  void defaultAndUserExcludesLeaveFilesOut() throws IOException {
    for (String path :
        List.of(".obsidian/workspace.md", "node_modules/pkg/readme.md", "drafts/idea.md")) {
      Files.createDirectories(a.resolve(path).getParent());
      Files.writeString(a.resolve(path), "# excluded\n\nnot indexed\n");
    }
    Files.writeString(a.resolve("scratch.tmp.md"), "# excluded too\n");

    SyncReport report =
        sync(CollectionRoot.of("work", a).withExcludes(List.of("drafts/", "*.tmp.md")));

    assertThat(report.files()).isEqualTo(1);
    assertThat(index.stats().records()).isEqualTo(1);
  }

  @Test
  void aFileOverTheSizeCapIsSkippedWithTheReason() throws IOException {
    Files.writeString(a.resolve("big.md"), "# Big\n\n" + "word ".repeat(100));

    SyncReport report = sync(new CollectionRoot("work", a, List.of(), 200));

    assertThat(report.added()).isEqualTo(1);
    assertThat(report.skipped())
        .singleElement()
        .satisfies(
            issue -> {
              assertThat(issue.file().getFileName().toString()).isEqualTo("big.md");
              assertThat(issue.reason()).contains("over the per-file cap");
            });
    CollectionStatus status = index.collections().getFirst();
    assertThat(status.skipped())
        .singleElement()
        .satisfies(i -> assertThat(i.file()).endsWith("big.md"));
  }

  @Test
  void anIdNamedKeyFromTwoCollectionsStaysWithTheFirst() throws IOException {
    String line = "{\"_id\": \"d1\", \"title\": \"Shared\", \"text\": \"One document id.\"}\n";
    Files.writeString(a.resolve("docs.jsonl"), line);
    Files.writeString(b.resolve("docs.jsonl"), line);
    sync(CollectionRoot.of("work", a));

    SyncReport second = sync(CollectionRoot.of("home", b));

    assertThat(second.warnings()).anyMatch(w -> w.reason().contains("collection 'work'"));
    assertThat(index.get("doc:d1").orElseThrow().record().origin())
        .isEqualTo(a.resolve("docs.jsonl").toString());
    // Removing the second collection must not take the first one's record with it.
    index.removeCollection("home");
    assertThat(index.get("doc:d1")).isPresent();
  }

  @Test
  void statusCountsRecordsChunksVectorsAndFilesPerCollection() throws IOException {
    Files.write(a.resolve("model.stl"), new byte[] {1, 2, 3});
    sync(CollectionRoot.of("work", a), CollectionRoot.of("home", b));

    List<CollectionStatus> collections = index.collections();

    assertThat(collections).extracting(CollectionStatus::name).containsExactly("home", "work");
    CollectionStatus work = collections.get(1);
    assertThat(work.records()).isEqualTo(1);
    assertThat(work.chunks()).isEqualTo(work.embeddedChunks()).isPositive();
    assertThat(work.vectorCoverage()).isEqualTo(1.0);
    assertThat(work.files()).isEqualTo(2);
    assertThat(work.lastSyncAt()).isNotNull();
    assertThat(work.skipped())
        .extracting(CollectionStatus.Issue::file)
        .singleElement()
        .asString()
        .endsWith("model.stl");
    assertThat(collections.get(0).skipped()).isEmpty();
  }

  @Test
  void twoCollectionsWithOneNameInOneSyncAreRefused() {
    assertThatThrownBy(() -> sync(CollectionRoot.of("x", a), CollectionRoot.of("x", b)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("two collections named 'x'");
  }

  @Test
  void invalidNamesAreRefusedWithTheRule() {
    assertThatThrownBy(() -> CollectionRoot.of("a/b", a))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid collection name 'a/b'");
    assertThat(CollectionRoot.defaultName(folders.resolve("My Vault"))).isEqualTo("My Vault");
  }
}
