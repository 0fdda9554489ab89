package dev.brain.index;

/**
 * Names of the Lucene fields brain writes, for the retrieval module (which searches the index
 * through {@link BrainIndex#acquireSearcher()}). Modules above retrieval never see these.
 *
 * <p>The index holds two kinds of documents, told apart by {@link #DOC_TYPE}: one record document
 * per {@link CorpusRecord} and one chunk document per chunk of its text (and of its summary). A
 * record and its chunks share {@link #PARENT_KEY}; they are written as one block, record last, and
 * replaced together.
 *
 * <p>Analyzed fields ({@link #TEXT}, {@link #HEADING}, {@link #TITLE}) use Lucene's {@code
 * EnglishAnalyzer} chain (possessives, lower case, English stop words, Porter stemming) with
 * underscores at a token's ends dropped, so Markdown emphasis ({@code _word_}) hides no word; see
 * {@link BrainIndex#analyzer()}. Keyword fields are indexed verbatim and have sorted-set doc
 * values; date fields are {@code LongField}s (points plus doc values, epoch milliseconds) for range
 * filters and sorting.
 */
public final class IndexFields {
  private IndexFields() {}

  /** {@value #RECORD} or {@value #CHUNK}; keyword, on every document. */
  public static final String DOC_TYPE = "doc_type";

  /** {@link #DOC_TYPE} of a record document. */
  public static final String RECORD = "record";

  /** {@link #DOC_TYPE} of a chunk document. */
  public static final String CHUNK = "chunk";

  // ---- shared by record and chunk documents ----

  /**
   * The record key on the record document and on each of its chunks; keyword with doc values,
   * stored on chunks. Deleting or replacing by this term removes a record with its chunks.
   */
  public static final String PARENT_KEY = "parent_key";

  /**
   * Name of the collection the record came from ({@link CollectionRoot#name()}); keyword with doc
   * values, stored on records, on chunks for per-collection counts and filters.
   */
  public static final String COLLECTION = "collection";

  /** {@code item} or {@code source}; keyword with doc values, stored on records. */
  public static final String KIND = "kind";

  /** {@code note}, {@code web}, {@code pdf}, ...; keyword with doc values, stored on records. */
  public static final String SOURCE_TYPE = "source_type";

  /** User tags (multi-valued); keyword with doc values, stored on records. */
  public static final String TAGS = "tags";

  /** Record title; analyzed text, stored on records, denormalized onto chunks for BM25. */
  public static final String TITLE = "title";

  /**
   * Other names of the record (a note's front-matter aliases), multi-valued; analyzed text like
   * {@link #TITLE}, stored on records, denormalized onto chunks.
   */
  public static final String ALIASES = "aliases";

  /** Creation time, epoch milliseconds; {@code LongField}, stored on records. */
  public static final String CREATED_AT = "created_at";

  /** Publication time, epoch milliseconds; {@code LongField}, stored on records. */
  public static final String PUBLISHED_AT = "published_at";

  /**
   * Last change, epoch milliseconds; stored on records only. Absent on records indexed before it
   * (read as unknown).
   */
  public static final String UPDATED_AT = "updated_at";

  /**
   * Where {@link #CREATED_AT} came from ({@link CorpusRecord#dateSource()}); stored on records
   * only, absent when unknown.
   */
  public static final String DATE_SOURCE = "date_source";

  // ---- record documents only ----

  /** The record key; keyword with doc values, stored. Unique among live record documents. */
  public static final String KEY = "key";

  /** Canonical URL; keyword, stored. */
  public static final String URL = "url";

  /** Vault-relative note path; keyword, stored. */
  public static final String PATH = "path";

  /** Author or channel; keyword, stored. */
  public static final String AUTHOR = "author";

  /** The raw record text exactly as imported; stored only (search goes through chunks). */
  public static final String RAW_TEXT = "raw_text";

  /** Derived summary; stored only (its chunks carry role {@code summary}). */
  public static final String SUMMARY = "summary";

  /**
   * Where the summary came from ({@code imported}, {@code extractive}, {@code model}) or {@code
   * off} for a long record left without one; absent on a short record. Keyword, stored.
   */
  public static final String SUMMARY_SOURCE = "summary_source";

  /**
   * The version of a model-written summary: {@code <model>|<prompt version>|<input hash>} ({@link
   * SummaryModel#version}); keyword, stored. Set on a record whose summary source is {@code model}.
   */
  public static final String SUMMARY_VERSION = "summary_version";

  /**
   * Why the last attempt at a model summary of this record failed; keyword, stored. Absent once one
   * is made (or while none was tried).
   */
  public static final String SUMMARY_FAILURE = "summary_failure";

  /** Failed attempts at a model summary in a row; stored only. */
  public static final String SUMMARY_ATTEMPTS = "summary_attempts";

  /** When a failed model summary may be tried again (epoch millis); stored only. */
  public static final String SUMMARY_RETRY_AT = "summary_retry_at";

  /** Keys this record links to (multi-valued); keyword, stored. Backlinks are a term query. */
  public static final String LINKS = "links";

  /** {@link CorpusRecord#contentHash()}; keyword with doc values, stored. */
  public static final String CONTENT_HASH = "content_hash";

  /** The chunking rules and budget the record's chunks were made with; keyword, stored. */
  public static final String CHUNKING = "chunking";

  /** Absolute path of the file the record came from; keyword with doc values, stored. */
  public static final String ORIGIN = "origin";

  // ---- chunk documents only ----

  /** {@code <key>#<ordinal>}; keyword, stored. */
  public static final String CHUNK_ID = "chunk_id";

  /** 0-based position of the chunk in its record; {@code IntField}, stored. */
  public static final String ORDINAL = "ordinal";

  /** {@code raw}, {@code summary}, {@code transcript}, {@code ocr}; keyword, stored. */
  public static final String ROLE = "role";

  /** Enclosing Markdown headings, outermost first (multi-valued); stored only. */
  public static final String HEADING_PATH = "heading_path";

  /** The heading path joined with {@code " > "}; analyzed text, not stored. */
  public static final String HEADING = "heading";

  /**
   * Offset of the chunk's first character; {@code IntField}, stored. Raw and transcript chunks
   * index the record's raw text, summary chunks the record's summary.
   */
  public static final String START_CHAR = "start_char";

  /** Offset after the chunk's last character; {@code IntField}, stored. */
  public static final String END_CHAR = "end_char";

  /** The chunk text; analyzed text, stored. The BM25 lane's main field. */
  public static final String TEXT = "text";

  /** Hex sha-256 of the chunk text; keyword, stored. */
  public static final String TEXT_HASH = "text_hash";

  /**
   * Hex sha-256 of what the model embedded for the chunk (title, blank line, chunk text); keyword,
   * stored. Embeddings are reused by this hash.
   */
  public static final String EMBED_HASH = "embed_hash";

  /** Version of the chunking rules that made the chunk; stored. */
  public static final String CHUNKER_VERSION = "chunker_version";

  /**
   * The chunk embedding: a {@code KnnFloatVectorField} of the model's dimension, L2-normalized,
   * compared with {@code DOT_PRODUCT}. Query vectors must come from {@link BrainIndex#embedder()}.
   * A sync writes chunks before embedding them (lexical first), so a chunk may lack it for a while.
   */
  public static final String VECTOR = "vector";
}
