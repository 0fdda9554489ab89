package dev.brain.index;

import dev.brain.chunking.Chunker;
import dev.brain.chunking.ExtractiveSummary;
import dev.brain.models.EmbeddingModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Everything that shapes a brain index. Start from {@link #defaults(Path)} and change fields with
 * the {@code with...} methods.
 *
 * @param directory the Lucene index folder; default {@code <data>/index}
 * @param model the embedding model; default {@link EmbeddingModel#BGE_SMALL_EN_V15}. Recorded in
 *     the index metadata: an index can only be opened with the model it was built with
 * @param vectorFormat how vectors are stored; default {@link VectorFormat#FLOAT}. Recorded in the
 *     index metadata like the model
 * @param hnswMaxConn HNSW graph fan-out ("M"); default 16, Lucene's default. Affects only segments
 *     written from now on
 * @param hnswBeamWidth HNSW construction beam width; default 100, Lucene's default
 * @param chunkMaxTokens token budget of one chunk; default {@value Chunker#DEFAULT_MAX_TOKENS}.
 *     Changing it re-chunks every record on the next sync (embeddings of unchanged chunk texts are
 *     reused)
 * @param chunkOverlapTokens overlap between consecutive chunks; default {@value
 *     Chunker#DEFAULT_OVERLAP_TOKENS}
 * @param commitInterval how much sync work may go uncommitted; default 10 seconds. A crash loses at
 *     most this much work
 * @param embedBatchSize chunks collected (across records) before one embedder call; default 64
 * @param maxChunksPerRecord most chunks of one record's text (a note, a page, a PDF: one file);
 *     default {@value #DEFAULT_MAX_CHUNKS_PER_RECORD}. A longer text is indexed with its first
 *     chunks only and reported as truncated, so one huge file cannot take a sync's time and memory
 * @param summaries which summaries a sync makes for records without one of their own; default
 *     {@link SummaryMode#EXTRACTIVE}. Part of the chunking signature: changing it re-chunks every
 *     record on the next sync (embeddings of unchanged chunk texts are reused)
 * @param summaryModel the chat model that writes the summaries of long records in place of their
 *     extractive ones, after each sync made them searchable and embedded them; default {@code null}
 *     (none). Not part of the chunking signature: each record's model summary is versioned on its
 *     own ({@link SummaryModel#version})
 */
public record IndexConfig(
    Path directory,
    EmbeddingModel model,
    VectorFormat vectorFormat,
    int hnswMaxConn,
    int hnswBeamWidth,
    int chunkMaxTokens,
    int chunkOverlapTokens,
    Duration commitInterval,
    int embedBatchSize,
    int maxChunksPerRecord,
    SummaryMode summaries,
    SummaryModel summaryModel) {

  /** Lucene's default HNSW fan-out. */
  public static final int DEFAULT_HNSW_MAX_CONN = 16;

  /** Lucene's default HNSW construction beam width. */
  public static final int DEFAULT_HNSW_BEAM_WIDTH = 100;

  /** Default of {@link #commitInterval()}. */
  public static final Duration DEFAULT_COMMIT_INTERVAL = Duration.ofSeconds(10);

  /** Default of {@link #embedBatchSize()}. */
  public static final int DEFAULT_EMBED_BATCH_SIZE = 64;

  /**
   * Default of {@link #maxChunksPerRecord()}: about a million tokens, some 4 MB of prose (several
   * books); a 20 MB log or dump would otherwise make 50,000 chunks.
   */
  public static final int DEFAULT_MAX_CHUNKS_PER_RECORD = 4_000;

  public IndexConfig {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(vectorFormat, "vectorFormat");
    Objects.requireNonNull(commitInterval, "commitInterval");
    Objects.requireNonNull(summaries, "summaries");
    requireRange("hnswMaxConn", hnswMaxConn, 1, 512);
    requireRange("hnswBeamWidth", hnswBeamWidth, 1, 3200);
    requireRange("chunkMaxTokens", chunkMaxTokens, 16, 8192);
    requireRange("chunkOverlapTokens", chunkOverlapTokens, 0, chunkMaxTokens / 2);
    requireRange("embedBatchSize", embedBatchSize, 1, 4096);
    requireRange("maxChunksPerRecord", maxChunksPerRecord, 1, 10_000_000);
    if (commitInterval.isNegative()) {
      throw new IllegalArgumentException("commitInterval must not be negative: " + commitInterval);
    }
  }

  /** The default configuration for a data directory: the index lives in {@code dataDir/index}. */
  public static IndexConfig defaults(Path dataDir) {
    return new IndexConfig(
        dataDir.resolve("index"),
        EmbeddingModel.BGE_SMALL_EN_V15,
        VectorFormat.FLOAT,
        DEFAULT_HNSW_MAX_CONN,
        DEFAULT_HNSW_BEAM_WIDTH,
        Chunker.DEFAULT_MAX_TOKENS,
        Chunker.DEFAULT_OVERLAP_TOKENS,
        DEFAULT_COMMIT_INTERVAL,
        DEFAULT_EMBED_BATCH_SIZE,
        DEFAULT_MAX_CHUNKS_PER_RECORD,
        SummaryMode.EXTRACTIVE,
        null);
  }

  /** This configuration with another index folder. */
  public IndexConfig withDirectory(Path value) {
    return copy(c -> c.directory = value);
  }

  /** This configuration with another embedding model. */
  public IndexConfig withModel(EmbeddingModel value) {
    return copy(c -> c.model = value);
  }

  /** This configuration with another vector format. */
  public IndexConfig withVectorFormat(VectorFormat value) {
    return copy(c -> c.vectorFormat = value);
  }

  /** This configuration with another chunk budget. */
  public IndexConfig withChunking(int maxTokens, int overlapTokens) {
    return copy(
        c -> {
          c.chunkMaxTokens = maxTokens;
          c.chunkOverlapTokens = overlapTokens;
        });
  }

  /** This configuration with another commit interval. */
  public IndexConfig withCommitInterval(Duration value) {
    return copy(c -> c.commitInterval = value);
  }

  /** This configuration with another embedding batch size. */
  public IndexConfig withEmbedBatchSize(int value) {
    return copy(c -> c.embedBatchSize = value);
  }

  /** This configuration with another cap on the chunks of one record. */
  public IndexConfig withMaxChunksPerRecord(int value) {
    return copy(c -> c.maxChunksPerRecord = value);
  }

  /** This configuration with other summaries made at sync time. */
  public IndexConfig withSummaries(SummaryMode value) {
    return copy(c -> c.summaries = value);
  }

  /** This configuration with another summary model ({@code null}: none). */
  public IndexConfig withSummaryModel(SummaryModel value) {
    return copy(c -> c.summaryModel = value);
  }

  private IndexConfig copy(Consumer<Copy> change) {
    var copy = new Copy(this);
    change.accept(copy);
    return copy.build();
  }

  /** The fields of an {@code IndexConfig} to change before building a checked copy. */
  private static final class Copy {
    Path directory;
    EmbeddingModel model;
    VectorFormat vectorFormat;
    int hnswMaxConn;
    int hnswBeamWidth;
    int chunkMaxTokens;
    int chunkOverlapTokens;
    Duration commitInterval;
    int embedBatchSize;
    int maxChunksPerRecord;
    SummaryMode summaries;
    SummaryModel summaryModel;

    Copy(IndexConfig c) {
      directory = c.directory;
      model = c.model;
      vectorFormat = c.vectorFormat;
      hnswMaxConn = c.hnswMaxConn;
      hnswBeamWidth = c.hnswBeamWidth;
      chunkMaxTokens = c.chunkMaxTokens;
      chunkOverlapTokens = c.chunkOverlapTokens;
      commitInterval = c.commitInterval;
      embedBatchSize = c.embedBatchSize;
      maxChunksPerRecord = c.maxChunksPerRecord;
      summaries = c.summaries;
      summaryModel = c.summaryModel;
    }

    IndexConfig build() {
      return new IndexConfig(
          directory,
          model,
          vectorFormat,
          hnswMaxConn,
          hnswBeamWidth,
          chunkMaxTokens,
          chunkOverlapTokens,
          commitInterval,
          embedBatchSize,
          maxChunksPerRecord,
          summaries,
          summaryModel);
    }
  }

  /**
   * The folder of the embedding cache: beside the index folder, named after it with {@code
   * -embeddings} ({@code <data>/index-embeddings} by default). It outlives the index ({@link
   * BrainIndex#deleteIndex} leaves it), so a rebuild with the same model embeds nothing it embedded
   * before.
   */
  public Path embeddingCacheDirectory() {
    Path name = directory.getFileName();
    return name == null
        ? directory.resolve("embeddings")
        : directory.resolveSibling(name + "-embeddings");
  }

  /**
   * How brain's own research section is chunked (apart, with role {@code brain_written}), part of
   * {@link #chunkingSignature()}: an index chunked before re-chunks its notes on the next sync.
   */
  static final String DERIVED_VERSION = "derived-v1";

  /**
   * The chunking signature stored on every record: chunker version, budget, embedding input
   * version, analyzer version, how brain's research section is chunked and the summaries made. A
   * record whose signature differs from the current one is re-chunked (and its chunks re-embedded
   * where the input changed) on sync even if its content is unchanged.
   */
  public String chunkingSignature() {
    return Chunker.VERSION
        + "/"
        + chunkMaxTokens
        + "/"
        + chunkOverlapTokens
        + "/"
        + EmbeddingInput.VERSION
        + "/"
        + TextAnalyzer.VERSION
        + "/"
        + DERIVED_VERSION
        + "/"
        + (summaries == SummaryMode.EXTRACTIVE ? ExtractiveSummary.VERSION : "no-summaries");
  }

  private static void requireRange(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be between " + min + " and " + max + ", got " + value);
    }
  }
}
