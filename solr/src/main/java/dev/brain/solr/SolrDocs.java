package dev.brain.solr;

import static dev.brain.index.IndexFields.*;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.index.CorpusRecord;
import dev.brain.index.RecordDocument;
import dev.brain.retrieval.StoredChunk;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/**
 * brain's records and chunks as Solr documents and back: the embedded index's fields ({@code
 * IndexFields}) with the same names, plus {@code id} (the key, or the chunk id), {@code has_vector}
 * (a dense vector field cannot be asked whether it is present) and the documents of brain's own
 * metadata.
 */
final class SolrDocs {
  private SolrDocs() {}

  static final String ID = "id";
  static final String HAS_VECTOR = "has_vector";
  static final String META = "meta";
  static final String SYNC = "sync";
  static final String META_ID = "brain:meta";
  static final String MODEL_ID = "model_id";
  static final String DIMENSION = "dimension";
  static final String SCHEMA_VERSION = "schema_version";
  static final String LAST_SYNC_AT = "last_sync_at";
  static final String FILES = "files";
  static final String ISSUES = "issues";

  /** The fields of a record document that make its {@link CorpusRecord}. */
  static final String RECORD_FIELDS =
      String.join(
          ",",
          KEY,
          KIND,
          SOURCE_TYPE,
          TITLE,
          ALIASES,
          URL,
          PATH,
          AUTHOR,
          TAGS,
          CREATED_AT,
          PUBLISHED_AT,
          UPDATED_AT,
          DATE_SOURCE,
          RAW_TEXT,
          SUMMARY,
          LINKS,
          ORIGIN);

  /** The fields a row reads of a chunk. */
  static final String CHUNK_FIELDS =
      String.join(
          ",", CHUNK_ID, PARENT_KEY, ORDINAL, ROLE, HEADING_PATH, START_CHAR, END_CHAR, TEXT);

  /** The id of the document holding a collection's last sync. */
  static String syncId(String collection) {
    return "brain:sync:" + collection;
  }

  /** A record's document, stored with {@code summary} (its own, or the one its sync made). */
  static SolrInputDocument record(
      CorpusRecord r, String summary, String collection, String chunking) {
    var d = new SolrInputDocument();
    d.setField(ID, r.key());
    d.setField(DOC_TYPE, RECORD);
    d.setField(KEY, r.key());
    d.setField(PARENT_KEY, r.key());
    d.setField(COLLECTION, collection);
    shared(d, r);
    setIfPresent(d, URL, r.url());
    setIfPresent(d, PATH, r.path());
    setIfPresent(d, AUTHOR, r.author());
    if (r.updatedAt() != null) {
      d.setField(UPDATED_AT, r.updatedAt().toEpochMilli());
    }
    setIfPresent(d, DATE_SOURCE, r.dateSource());
    d.setField(RAW_TEXT, r.text());
    setIfPresent(d, SUMMARY, summary);
    if (!r.links().isEmpty()) {
      d.setField(LINKS, r.links());
    }
    d.setField(CONTENT_HASH, r.contentHash());
    d.setField(CHUNKING, chunking);
    setIfPresent(d, ORIGIN, r.origin());
    return d;
  }

  /** The documents of a record's chunks, with the vectors known ({@code null} where none). */
  static List<SolrInputDocument> chunks(
      CorpusRecord r,
      String collection,
      List<Chunk> chunks,
      List<String> embedHashes,
      List<float[]> vectors) {
    var out = new ArrayList<SolrInputDocument>(chunks.size());
    for (int i = 0; i < chunks.size(); i++) {
      Chunk c = chunks.get(i);
      var d = new SolrInputDocument();
      d.setField(ID, c.chunkId());
      d.setField(DOC_TYPE, CHUNK);
      d.setField(CHUNK_ID, c.chunkId());
      d.setField(PARENT_KEY, r.key());
      d.setField(COLLECTION, collection);
      d.setField(ORDINAL, c.ordinal());
      d.setField(START_CHAR, c.startChar());
      d.setField(END_CHAR, c.endChar());
      d.setField(ROLE, c.role().wireName());
      if (!c.headingPath().isEmpty()) {
        d.setField(HEADING_PATH, c.headingPath());
        d.setField(HEADING, String.join(" > ", c.headingPath()));
      }
      d.setField(TEXT, c.text());
      d.setField(TEXT_HASH, c.textHash());
      d.setField(EMBED_HASH, embedHashes.get(i));
      d.setField(CHUNKER_VERSION, c.chunkerVersion());
      shared(d, r);
      float[] v = vectors == null ? null : vectors.get(i);
      setVector(d, v);
      out.add(d);
    }
    return out;
  }

  /** Sets (or clears) a chunk document's vector. */
  static void setVector(SolrInputDocument d, float[] v) {
    if (v == null) {
      d.removeField(VECTOR);
      d.setField(HAS_VECTOR, false);
      return;
    }
    var list = new ArrayList<Float>(v.length);
    for (float f : v) {
      list.add(f);
    }
    d.setField(VECTOR, list);
    d.setField(HAS_VECTOR, true);
  }

  /** The record fields every chunk carries too (BM25 fields and pre-filters). */
  private static void shared(SolrInputDocument d, CorpusRecord r) {
    d.setField(KIND, r.kind());
    d.setField(SOURCE_TYPE, r.sourceType());
    setIfPresent(d, TITLE, r.title());
    if (!r.aliases().isEmpty()) {
      d.setField(ALIASES, r.aliases());
    }
    if (!r.tags().isEmpty()) {
      d.setField(TAGS, r.tags());
    }
    if (r.createdAt() != null) {
      d.setField(CREATED_AT, r.createdAt().toEpochMilli());
    }
    if (r.publishedAt() != null) {
      d.setField(PUBLISHED_AT, r.publishedAt().toEpochMilli());
    }
  }

  private static void setIfPresent(SolrInputDocument d, String field, String value) {
    if (value != null) {
      d.setField(field, value);
    }
  }

  static StoredChunk storedChunk(int handle, SolrDocument d) {
    return new StoredChunk(
        handle,
        str(d, CHUNK_ID),
        str(d, PARENT_KEY),
        integer(d, ORDINAL),
        str(d, ROLE),
        strings(d, HEADING_PATH),
        integer(d, START_CHAR),
        integer(d, END_CHAR),
        str(d, TEXT));
  }

  /**
   * A record document as the record it was written from, decoded by the index's one mapping of
   * field names to record ({@link RecordDocument#toRecord()}).
   */
  static CorpusRecord corpusRecord(SolrDocument d) {
    return new SolrRecordDocument(d).toRecord();
  }

  /** A Solr document read as a {@link RecordDocument}. */
  private record SolrRecordDocument(SolrDocument d) implements RecordDocument {
    @Override
    public String value(String field) {
      return str(d, field);
    }

    @Override
    public List<String> values(String field) {
      return strings(d, field);
    }

    @Override
    public Instant instant(String field) {
      return SolrDocs.instant(d, field);
    }
  }

  /** A chunk document as the chunk it was written from. */
  static Chunk chunk(SolrDocument d) {
    return new Chunk(
        str(d, CHUNK_ID),
        str(d, PARENT_KEY),
        integer(d, ORDINAL),
        ChunkRole.valueOf(str(d, ROLE).toUpperCase(Locale.ROOT)),
        strings(d, HEADING_PATH),
        integer(d, START_CHAR),
        integer(d, END_CHAR),
        str(d, TEXT),
        str(d, TEXT_HASH),
        str(d, CHUNKER_VERSION));
  }

  static String str(SolrDocument d, String field) {
    Object v = d.getFirstValue(field);
    return v == null ? null : v.toString();
  }

  static List<String> strings(SolrDocument d, String field) {
    Collection<Object> values = d.getFieldValues(field);
    if (values == null) {
      return List.of();
    }
    var out = new ArrayList<String>(values.size());
    values.forEach(v -> out.add(v.toString()));
    return out;
  }

  static int integer(SolrDocument d, String field) {
    Object v = d.getFirstValue(field);
    return v == null ? 0 : ((Number) v).intValue();
  }

  static long longValue(SolrDocument d, String field) {
    Object v = d.getFirstValue(field);
    return v == null ? 0 : ((Number) v).longValue();
  }

  private static Instant instant(SolrDocument d, String field) {
    Object v = d.getFirstValue(field);
    return v == null ? null : Instant.ofEpochMilli(((Number) v).longValue());
  }
}
