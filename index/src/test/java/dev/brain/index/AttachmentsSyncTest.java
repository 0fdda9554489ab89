package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attachments (images, video, ...) beside the notes are counted per type by the sync and kept in
 * the collection's status, never listed one by one; only real problems are listed per file.
 */
class AttachmentsSyncTest {

  private static Embedder model;

  @TempDir Path data;
  @TempDir Path vault;

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
  void vaultWithAttachments() throws IOException {
    index = BrainIndex.open(IndexConfig.defaults(data), model);
    Files.writeString(vault.resolve("trip.md"), "# Trip\n\nPhotos of the ridge walk.\n");
    Path images = Files.createDirectories(vault.resolve("attachments"));
    for (int i = 0; i < 300; i++) {
      Files.write(images.resolve("photo-" + i + ".png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
    }
    Files.write(images.resolve("walk.MP4"), new byte[] {0, 0, 0, 0x18});
    Files.write(images.resolve("clip.mp4"), new byte[] {0, 0, 0, 0x18});
    Files.writeString(vault.resolve("board.canvas"), "{\"nodes\":[]}");
    notes = CollectionRoot.of("notes", vault);
  }

  @AfterEach
  void closeIndex() throws IOException {
    index.close();
  }

  @Test
  void attachmentsAreCountedPerTypeAndOnlyUnknownTypesAreListed() throws IOException {
    SyncReport report = index.syncCollections(List.of(notes), SyncListener.NONE);

    assertThat(report.attachments().byExtension())
        .containsExactly(Map.entry("png", 300), Map.entry("mp4", 2));
    assertThat(report.attachments().total()).isEqualTo(302);
    assertThat(report.skipped())
        .singleElement()
        .satisfies(
            issue -> {
              assertThat(issue.file().getFileName()).hasToString("board.canvas");
              assertThat(issue.reason()).contains("unsupported file type .canvas");
            });
    assertThat(report.failed()).isEmpty();
    assertThat(report.files()).isEqualTo(2); // the note and the canvas: attachments are not read
    assertThat(report.added()).isEqualTo(1);

    CollectionStatus status = index.collections().getFirst();
    assertThat(status.attachments().byExtension())
        .containsExactly(Map.entry("png", 300), Map.entry("mp4", 2));
    assertThat(status.skipped()).hasSize(1);
    assertThat(status.moreIssues()).isZero();
  }

  @Test
  void theCountsOutliveTheIndexAndAWatchersPartialSync() throws IOException {
    index.syncCollections(List.of(notes), SyncListener.NONE);
    index.close();
    index = BrainIndex.open(IndexConfig.defaults(data), model);
    assertThat(index.collections().getFirst().attachments().total()).isEqualTo(302);

    Files.write(vault.resolve("attachments/scan.pdf.zip"), new byte[] {'P', 'K', 3, 4});
    Files.writeString(vault.resolve("trip.md"), "# Trip\n\nPhotos of the ridge walk, zipped.\n");
    index.syncChanged(notes, Set.of(vault.resolve("trip.md")), SyncListener.NONE);

    CollectionStatus status = index.collections().getFirst();
    assertThat(status.attachments().byExtension())
        .containsExactly(Map.entry("png", 300), Map.entry("mp4", 2), Map.entry("zip", 1));
    assertThat(status.skipped()).extracting(CollectionStatus.Issue::reason).hasSize(1);
  }
}
