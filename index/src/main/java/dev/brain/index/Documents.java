package dev.brain.index;

import static dev.brain.index.IndexFields.*;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field.Store;
import org.apache.lucene.document.IntField;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.LongField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;

/**
 * Maps records and chunks to Lucene documents and back: the schema of {@link IndexFields} in one
 * place (the field-to-record mapping itself is {@link RecordDocument#toRecord()}, shared with
 * Solr). Field types must agree between record and chunk documents wherever a name is shared
 * (Lucene enforces one schema per field name).
 */
final class Documents {
  private Documents() {}

  /** Vectors are unit length, so the dot product is the cosine and cheaper to compute. */
  static final VectorSimilarityFunction SIMILARITY = VectorSimilarityFunction.DOT_PRODUCT;

  /** The term that selects a record document and all its chunks. */
  static Term parentTerm(String key) {
    return new Term(PARENT_KEY, key);
  }

  /**
   * The block that replaces a record: its chunks in ordinal order, then the record document (parent
   * last, as Lucene's block joins expect).
   */
  static List<Document> block(
      CorpusRecord record,
      String contentHash,
      SummaryState summary,
      String collection,
      String chunking,
      List<Chunk> chunks,
      List<String> embedHashes,
      List<float[]> vectors) {
    var docs = new ArrayList<Document>(chunks.size() + 1);
    for (int i = 0; i < chunks.size(); i++) {
      docs.add(
          chunkDocument(record, collection, chunks.get(i), embedHashes.get(i), vectors.get(i)));
    }
    docs.add(recordDocument(record, contentHash, summary, collection, chunking));
    return docs;
  }

  static Document recordDocument(
      CorpusRecord r,
      String contentHash,
      SummaryState summary,
      String collection,
      String chunking) {
    var doc = new Document();
    doc.add(new StringField(DOC_TYPE, RECORD, Store.YES));
    doc.add(new KeywordField(KEY, r.key(), Store.YES));
    doc.add(new KeywordField(PARENT_KEY, r.key(), Store.NO));
    doc.add(new KeywordField(COLLECTION, collection, Store.YES));
    addFilterFields(doc, r, Store.YES);
    addTitles(doc, r, Store.YES);
    addKeyword(doc, URL, r.url());
    addKeyword(doc, PATH, r.path());
    addKeyword(doc, AUTHOR, r.author());
    if (r.updatedAt() != null) {
      doc.add(new StoredField(UPDATED_AT, r.updatedAt().toEpochMilli()));
    }
    if (r.dateSource() != null) {
      doc.add(new StoredField(DATE_SOURCE, r.dateSource()));
    }
    doc.add(new StoredField(RAW_TEXT, r.text()));
    if (r.summary() != null) {
      doc.add(new StoredField(SUMMARY, r.summary()));
    }
    addSummaryState(doc, summary);
    for (String link : r.links()) {
      doc.add(new StringField(LINKS, link, Store.YES));
    }
    // Keyword fields with doc values: sync reads these three for every record without
    // decompressing stored raw text.
    doc.add(new KeywordField(CONTENT_HASH, contentHash, Store.YES));
    doc.add(new KeywordField(CHUNKING, chunking, Store.YES));
    if (r.origin() != null) {
      doc.add(new KeywordField(ORIGIN, r.origin(), Store.YES));
    }
    return doc;
  }

  private static void addSummaryState(Document doc, SummaryState s) {
    if (s == null) {
      return;
    }
    if (s.source() != null) {
      doc.add(new KeywordField(SUMMARY_SOURCE, s.source(), Store.YES));
    }
    if (s.version() != null) {
      doc.add(new KeywordField(SUMMARY_VERSION, s.version(), Store.YES));
    }
    if (s.failure() != null) {
      doc.add(new KeywordField(SUMMARY_FAILURE, s.failure(), Store.YES));
      doc.add(new StoredField(SUMMARY_ATTEMPTS, s.attempts()));
    }
    if (s.retryAt() != null) {
      doc.add(new StoredField(SUMMARY_RETRY_AT, s.retryAt().toEpochMilli()));
    }
  }

  /** The summary state a stored record document holds. */
  static SummaryState summaryState(Document doc) {
    IndexableField attempts = doc.getField(SUMMARY_ATTEMPTS);
    return new SummaryState(
        doc.get(SUMMARY_SOURCE),
        doc.get(SUMMARY_VERSION),
        doc.get(SUMMARY_FAILURE),
        attempts == null ? 0 : attempts.numericValue().intValue(),
        date(doc, SUMMARY_RETRY_AT));
  }

  /** A chunk document; without a vector (null) until the embedding pass of a sync adds one. */
  static Document chunkDocument(
      CorpusRecord r, String collection, Chunk c, String embedHash, float[] vector) {
    var doc = new Document();
    doc.add(new StringField(DOC_TYPE, CHUNK, Store.YES));
    doc.add(new StringField(CHUNK_ID, c.chunkId(), Store.YES));
    doc.add(new KeywordField(PARENT_KEY, r.key(), Store.YES));
    doc.add(new KeywordField(COLLECTION, collection, Store.NO));
    addFilterFields(doc, r, Store.NO);
    addTitles(doc, r, Store.NO);
    doc.add(new IntField(ORDINAL, c.ordinal(), Store.YES));
    doc.add(new KeywordField(ROLE, c.role().wireName(), Store.YES));
    for (String heading : c.headingPath()) {
      doc.add(new StoredField(HEADING_PATH, heading));
    }
    if (!c.headingPath().isEmpty()) {
      doc.add(new TextField(HEADING, String.join(" > ", c.headingPath()), Store.NO));
    }
    doc.add(new IntField(START_CHAR, c.startChar(), Store.YES));
    doc.add(new IntField(END_CHAR, c.endChar(), Store.YES));
    doc.add(new TextField(TEXT, c.text(), Store.YES));
    doc.add(new StringField(TEXT_HASH, c.textHash(), Store.YES));
    doc.add(new StringField(EMBED_HASH, embedHash, Store.YES));
    doc.add(new StoredField(CHUNKER_VERSION, c.chunkerVersion()));
    if (vector != null) {
      doc.add(new KnnFloatVectorField(VECTOR, vector, SIMILARITY));
    }
    return doc;
  }

  /** Kind, source type, tags and dates: on records (stored) and denormalized onto chunks. */
  private static void addFilterFields(Document doc, CorpusRecord r, Store store) {
    doc.add(new KeywordField(KIND, r.kind(), store));
    doc.add(new KeywordField(SOURCE_TYPE, r.sourceType(), store));
    for (String tag : r.tags()) {
      doc.add(new KeywordField(TAGS, tag, store));
    }
    addDate(doc, CREATED_AT, r.createdAt(), store);
    addDate(doc, PUBLISHED_AT, r.publishedAt(), store);
  }

  /** Title and aliases: stored on records, denormalized onto chunks for BM25. */
  private static void addTitles(Document doc, CorpusRecord r, Store store) {
    if (r.title() != null) {
      doc.add(new TextField(TITLE, r.title(), store));
    }
    for (String alias : r.aliases()) {
      doc.add(new TextField(ALIASES, alias, store));
    }
  }

  private static void addDate(Document doc, String field, Instant at, Store store) {
    if (at != null) {
      doc.add(new LongField(field, at.toEpochMilli(), store));
    }
  }

  private static void addKeyword(Document doc, String field, String value) {
    if (value != null) {
      doc.add(new StringField(field, value, Store.YES));
    }
  }

  /** Rebuilds the record from a stored record document ({@link RecordDocument#toRecord()}). */
  static CorpusRecord toRecord(Document doc) {
    return new LuceneRecordDocument(doc).toRecord();
  }

  /** A Lucene document read as a {@link RecordDocument}. */
  private record LuceneRecordDocument(Document doc) implements RecordDocument {
    @Override
    public String value(String field) {
      return doc.get(field);
    }

    @Override
    public List<String> values(String field) {
      return Arrays.asList(doc.getValues(field));
    }

    @Override
    public Instant instant(String field) {
      return date(doc, field);
    }
  }

  /** Rebuilds a chunk (without its vector) from a stored chunk document. */
  static Chunk toChunk(Document doc) {
    return new Chunk(
        doc.get(CHUNK_ID),
        doc.get(PARENT_KEY),
        intValue(doc, ORDINAL),
        ChunkRole.valueOf(doc.get(ROLE).toUpperCase(Locale.ROOT)),
        Arrays.asList(doc.getValues(HEADING_PATH)),
        intValue(doc, START_CHAR),
        intValue(doc, END_CHAR),
        doc.get(TEXT),
        doc.get(TEXT_HASH),
        doc.get(CHUNKER_VERSION));
  }

  private static Instant date(Document doc, String field) {
    IndexableField f = doc.getField(field);
    return f == null ? null : Instant.ofEpochMilli(f.numericValue().longValue());
  }

  private static int intValue(Document doc, String field) {
    return doc.getField(field).numericValue().intValue();
  }
}
