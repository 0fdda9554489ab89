package dev.brain.solr;

import static dev.brain.index.IndexFields.CHUNK;
import static dev.brain.index.IndexFields.CONTENT_HASH;
import static dev.brain.index.IndexFields.DOC_TYPE;
import static dev.brain.index.IndexFields.RECORD;
import static dev.brain.index.IndexFields.SUMMARY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.index.CorpusRecord;
import dev.brain.index.store.RecordStore;
import java.util.List;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.Test;

/** What the Solr store writes for a block of the sync pipeline, without a running Solr. */
class SolrRecordStoreTest {

  private static final CorpusRecord READ =
      CorpusRecord.builder("note:long.md", "item", "note", "A long text.")
          .title("Long")
          .origin("/v/long.md")
          .build();

  private static final Chunk RAW =
      new Chunk(
          "note:long.md#0",
          READ.key(),
          0,
          ChunkRole.RAW,
          List.of(),
          0,
          12,
          "A long text.",
          "t0",
          "v1");

  private static final Chunk SUMMARY_CHUNK =
      new Chunk(
          "note:long.md#1",
          READ.key(),
          1,
          ChunkRole.SUMMARY,
          List.of(),
          0,
          6,
          "A long",
          "t1",
          "v1");

  @Test
  void aRecordStoredWithTheSummaryItsSyncMadeKeepsTheHashOfTheRecordAsRead() {
    CorpusRecord stored = READ.withSummary("A long");
    var block =
        new RecordStore.Block(
            stored,
            READ.contentHash(),
            "vault",
            "sig",
            List.of(RAW, SUMMARY_CHUNK),
            List.of("e0", "e1"),
            new float[][] {{1f, 0f}, null});

    List<SolrInputDocument> docs = SolrRecordStore.documents(block);

    assertThat(stored.contentHash()).isNotEqualTo(READ.contentHash());
    SolrInputDocument record = docs.getFirst();
    assertThat(record.getFieldValue(DOC_TYPE)).isEqualTo(RECORD);
    // the next sync reads the file again and compares that record's hash with this one
    assertThat(record.getFieldValue(CONTENT_HASH)).isEqualTo(READ.contentHash());
    assertThat(record.getFieldValue(SUMMARY)).isEqualTo("A long");
    assertThat(docs.subList(1, 3))
        .allSatisfy(d -> assertThat(d.getFieldValue(DOC_TYPE)).isEqualTo(CHUNK));
    assertThat(docs.get(1).getFieldValue(SolrDocs.HAS_VECTOR)).isEqualTo(true);
    assertThat(docs.get(2).getFieldValue(SolrDocs.HAS_VECTOR)).isEqualTo(false);
  }
}
