package dev.brain.solr;

import static dev.brain.index.IndexFields.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.index.CorpusRecord;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.Test;

/** The mapping of records and chunks to Solr documents and back, without a running Solr. */
class SolrDocsTest {

  private static final CorpusRecord NOTE =
      CorpusRecord.builder(
              "note:espresso.md", CorpusRecord.KIND_ITEM, "note", "Grind fine. Tamp evenly.")
          .title("Espresso")
          .url("https://example.org/espresso")
          .path("espresso.md")
          .author("Ana")
          .tags(List.of("coffee", "home"))
          .createdAt(Instant.ofEpochMilli(1_000))
          .publishedAt(Instant.ofEpochMilli(2_000))
          .links(List.of("note:grinder.md"))
          .origin("/notes/espresso.md")
          .aliases(List.of("Shot"))
          .updatedAt(Instant.ofEpochMilli(3_000))
          .dateSource(CorpusRecord.DATE_FRONT_MATTER_CREATED)
          .build();

  private static final Chunk FIRST =
      new Chunk(
          "note:espresso.md#0",
          NOTE.key(),
          0,
          ChunkRole.RAW,
          List.of("Espresso", "Grind"),
          0,
          11,
          "Grind fine.",
          "th0",
          "v1");

  private static final Chunk SECOND =
      new Chunk(
          "note:espresso.md#1",
          NOTE.key(),
          1,
          ChunkRole.SUMMARY,
          List.of(),
          12,
          24,
          "Tamp evenly.",
          "th1",
          "v1");

  private static final List<Chunk> CHUNKS = List.of(FIRST, SECOND);
  private static final List<String> HASHES = List.of("eh0", "eh1");

  @Test
  void aRecordDocumentReadsBackAsTheRecordWithTheSummaryItWasStoredWith() {
    SolrInputDocument doc = SolrDocs.record(NOTE, "A short summary", "notes", "sig");

    assertThat(doc.getFieldValue(SolrDocs.ID)).isEqualTo(NOTE.key());
    assertThat(doc.getFieldValue(DOC_TYPE)).isEqualTo(RECORD);
    assertThat(doc.getFieldValue(PARENT_KEY)).isEqualTo(NOTE.key());
    assertThat(doc.getFieldValue(COLLECTION)).isEqualTo("notes");
    assertThat(doc.getFieldValue(CONTENT_HASH)).isEqualTo(NOTE.contentHash());
    assertThat(doc.getFieldValue(CHUNKING)).isEqualTo("sig");
    assertThat(SolrDocs.corpusRecord(stored(doc))).isEqualTo(NOTE.withSummary("A short summary"));
  }

  @Test
  void absentRecordFieldsAreLeftOutAndReadBackAsAbsent() {
    var bare = CorpusRecord.builder("doc:1", "source", "web", "text").build();

    SolrInputDocument doc = SolrDocs.record(bare, null, "web", "sig");

    assertThat(doc.getFieldNames())
        .doesNotContain(TITLE, URL, PATH, AUTHOR, TAGS, LINKS, SUMMARY, ORIGIN, CREATED_AT);
    assertThat(SolrDocs.corpusRecord(stored(doc))).isEqualTo(bare);
  }

  @Test
  void chunkDocumentsCarryTheirRecordsFieldsAndReadBackAsTheChunks() {
    List<SolrInputDocument> docs =
        SolrDocs.chunks(
            NOTE, "notes", CHUNKS, HASHES, Arrays.asList(new float[] {0.5f, -1f}, null));

    assertThat(docs).hasSize(2);
    SolrInputDocument first = docs.get(0);
    assertThat(first.getFieldValue(SolrDocs.ID)).isEqualTo(FIRST.chunkId());
    assertThat(first.getFieldValue(DOC_TYPE)).isEqualTo(CHUNK);
    assertThat(first.getFieldValue(PARENT_KEY)).isEqualTo(NOTE.key());
    assertThat(first.getFieldValue(COLLECTION)).isEqualTo("notes");
    assertThat(first.getFieldValue(EMBED_HASH)).isEqualTo("eh0");
    assertThat(first.getFieldValue(HEADING)).isEqualTo("Espresso > Grind");
    assertThat(first.getFieldValue(ROLE)).isEqualTo("raw");
    // pre-filters and BM25 fields of the record ride on every chunk
    assertThat(first.getFieldValue(KIND)).isEqualTo(CorpusRecord.KIND_ITEM);
    assertThat(first.getFieldValues(TAGS)).containsExactly("coffee", "home");
    assertThat(first.getFieldValue(CREATED_AT)).isEqualTo(1_000L);
    assertThat(first.getFieldValue(TITLE)).isEqualTo("Espresso");

    assertThat(SolrDocs.chunk(stored(first))).isEqualTo(FIRST);
    assertThat(SolrDocs.chunk(stored(docs.get(1)))).isEqualTo(SECOND);
    assertThat(docs.get(1).getFieldNames()).doesNotContain(HEADING_PATH, HEADING);
  }

  @Test
  void aChunkSaysWhetherItHasAVectorSinceADenseVectorFieldCannotBeAskedThat() {
    List<SolrInputDocument> docs =
        SolrDocs.chunks(
            NOTE, "notes", CHUNKS, HASHES, Arrays.asList(new float[] {0.5f, -1f}, null));

    assertThat(docs.get(0).getFieldValue(SolrDocs.HAS_VECTOR)).isEqualTo(true);
    assertThat(SolrStore.vector(stored(docs.get(0)))).containsExactly(0.5f, -1f);
    assertThat(docs.get(1).getFieldValue(SolrDocs.HAS_VECTOR)).isEqualTo(false);
    assertThat(docs.get(1).getFieldNames()).doesNotContain(VECTOR);
    assertThat(SolrStore.vector(stored(docs.get(1)))).isNull();

    SolrDocs.setVector(docs.get(0), null);
    assertThat(docs.get(0).getFieldValue(SolrDocs.HAS_VECTOR)).isEqualTo(false);
    assertThat(docs.get(0).getFieldNames()).doesNotContain(VECTOR);
  }

  @Test
  void withoutVectorsEveryChunkIsWrittenForTheEmbeddingPass() {
    List<SolrInputDocument> docs = SolrDocs.chunks(NOTE, "notes", CHUNKS, HASHES, null);

    assertThat(docs)
        .allSatisfy(d -> assertThat(d.getFieldValue(SolrDocs.HAS_VECTOR)).isEqualTo(false));
  }

  @Test
  void eachCollectionHasItsOwnSyncDocument() {
    assertThat(SolrDocs.syncId("notes")).isNotEqualTo(SolrDocs.syncId("papers"));
    assertThat(SolrDocs.syncId("notes")).isNotEqualTo(SolrDocs.META_ID);
  }

  /** The document as Solr returns it: stored fields by name, numbers as written. */
  static SolrDocument stored(SolrInputDocument in) {
    var out = new SolrDocument();
    for (String name : in.getFieldNames()) {
      out.setField(name, in.getFieldValue(name) == null ? null : in.getField(name).getValue());
    }
    return out;
  }
}
