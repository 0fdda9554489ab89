package dev.brain.solr;

import static dev.brain.index.IndexFields.COLLECTION;
import static dev.brain.index.IndexFields.DOC_TYPE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.AttachmentCounts;
import dev.brain.index.CollectionStatus;
import dev.brain.index.SyncReport.FileIssue;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.Test;

/** The per-collection sync document and the status read back from it, without a running Solr. */
class SyncDocumentsTest {

  private static final Instant AT = Instant.parse("2026-11-29T06:00:00Z");

  @Test
  void aCollectionsStatusReadsBackItsLastSyncFromTheSyncDocument() {
    SolrInputDocument doc =
        SyncDocuments.document(
            "notes",
            12,
            new AttachmentCounts(Map.of("png", 3, "mp3", 1)),
            List.of(issue("/n/big.pdf", "too large")),
            List.of(issue("/n/bad.md", "could not be read")),
            List.of(issue("/n/long.md", "cut at 2000 chunks")),
            List.of(issue("/n/dup.md", "kept the first")),
            0,
            AT);

    assertThat(doc.getFieldValue(SolrDocs.ID)).isEqualTo(SolrDocs.syncId("notes"));
    assertThat(doc.getFieldValue(DOC_TYPE)).isEqualTo(SolrDocs.SYNC);
    assertThat(doc.getFieldValue(COLLECTION)).isEqualTo("notes");

    CollectionStatus status = SyncDocuments.status("notes", 40, 90, 80, SolrDocsTest.stored(doc));

    assertThat(status.name()).isEqualTo("notes");
    assertThat(status.records()).isEqualTo(40);
    assertThat(status.chunks()).isEqualTo(90);
    assertThat(status.embeddedChunks()).isEqualTo(80);
    assertThat(status.files()).isEqualTo(12);
    assertThat(status.lastSyncAt()).isEqualTo(AT);
    assertThat(status.attachments().byExtension()).isEqualTo(Map.of("png", 3, "mp3", 1));
    assertThat(status.skipped())
        .containsExactly(new CollectionStatus.Issue("/n/big.pdf", "too large"));
    assertThat(status.failed())
        .containsExactly(new CollectionStatus.Issue("/n/bad.md", "could not be read"));
    assertThat(status.truncated())
        .containsExactly(new CollectionStatus.Issue("/n/long.md", "cut at 2000 chunks"));
    assertThat(status.warnings())
        .containsExactly(new CollectionStatus.Issue("/n/dup.md", "kept the first"));
    assertThat(status.moreIssues()).isZero();
  }

  @Test
  void eachIssueListIsCappedAsTheEmbeddedIndexCapsItAndTheRestCounted() {
    List<FileIssue> many =
        IntStream.range(0, CollectionStatus.MAX_ISSUES + 7)
            .mapToObj(i -> issue("/n/" + i + ".md", "unsupported"))
            .toList();
    List<FileIssue> few = many.subList(0, CollectionStatus.MAX_ISSUES + 2);

    CollectionStatus status =
        SyncDocuments.status(
            "notes",
            0,
            0,
            0,
            SolrDocsTest.stored(
                SyncDocuments.document(
                    "notes", 0, AttachmentCounts.NONE, many, few, List.of(), List.of(), 4, AT)));

    assertThat(status.skipped()).hasSize(CollectionStatus.MAX_ISSUES);
    assertThat(status.skipped().getFirst().file()).isEqualTo("/n/0.md");
    assertThat(status.failed()).hasSize(CollectionStatus.MAX_ISSUES);
    assertThat(status.moreIssues()).isEqualTo(7 + 2 + 4);
  }

  @Test
  void aCollectionWithoutASyncDocumentHasCountsButNoLastSync() {
    CollectionStatus status = SyncDocuments.status("papers", 5, 9, 0, null);

    assertThat(status.records()).isEqualTo(5);
    assertThat(status.files()).isZero();
    assertThat(status.lastSyncAt()).isNull();
    assertThat(status.attachments().byExtension()).isEmpty();
    assertThat(status.skipped()).isEmpty();
    assertThat(status.moreIssues()).isZero();
  }

  @Test
  void anUnreadableIssueListLosesOnlyTheIssues() {
    SolrInputDocument doc =
        SyncDocuments.document(
            "notes", 3, AttachmentCounts.NONE, List.of(), List.of(), List.of(), List.of(), 0, AT);
    doc.setField(SolrDocs.ISSUES, "{not json");

    CollectionStatus status = SyncDocuments.status("notes", 1, 1, 1, SolrDocsTest.stored(doc));

    assertThat(status.files()).isEqualTo(3);
    assertThat(status.lastSyncAt()).isEqualTo(AT);
    assertThat(status.warnings()).isEmpty();
  }

  private static FileIssue issue(String file, String reason) {
    return new FileIssue(Path.of(file), reason);
  }
}
