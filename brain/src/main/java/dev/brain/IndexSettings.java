package dev.brain;

import dev.brain.chunking.Chunker;
import dev.brain.index.IndexConfig;
import dev.brain.index.SummaryMode;
import dev.brain.index.SummaryModel;
import dev.brain.index.VectorFormat;
import dev.brain.models.EmbeddingModel;
import dev.brain.models.chat.ChatConfig;
import dev.brain.models.chat.ChatModels;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;

/**
 * {@code index.*}: how the index is built. Model and vector format are recorded in the index: an
 * index is opened with the ones it was built with, or not at all.
 *
 * @param model embedding model id; default {@code bge-small-en-v1.5} (also {@code
 *     all-minilm-l6-v2}). Env {@code BRAIN_INDEX_MODEL}
 * @param vectorFormat {@code float} (default), {@code int8} or {@code int4}
 * @param chunkMaxTokens token budget of a chunk; default {@value Chunker#DEFAULT_MAX_TOKENS}
 * @param chunkOverlapTokens overlap of consecutive chunks; default {@value
 *     Chunker#DEFAULT_OVERLAP_TOKENS}
 * @param embedBatchSize chunks per embedder call; default {@value
 *     IndexConfig#DEFAULT_EMBED_BATCH_SIZE}
 * @param maxChunksPerRecord most chunks of one record's text (a file); default {@value
 *     IndexConfig#DEFAULT_MAX_CHUNKS_PER_RECORD}; a longer one is indexed with its first chunks and
 *     reported as truncated
 * @param summaries {@code extractive} (default: long records without a summary of their own get one
 *     made from their text) or {@code none}
 * @param summaryModel a chat model ({@code ollama/<model>}, {@code openai/<model>}, on the servers
 *     of {@code chat.*}) that writes the summary of each long record in place of its extractive
 *     one, after the sync made the record searchable and embedded it; default none
 * @param summaryRetryBackoff wait before a record whose model summary failed is tried again by a
 *     sync, doubled with each failure in a row (up to a day); default 1m
 * @param backend where the lanes run and the records live: {@code embedded} (default, a Lucene
 *     index in {@code <data>/index}) or {@code solr} (SolrCloud, {@code index.solr.*}). Env {@code
 *     BRAIN_INDEX_BACKEND}
 * @param solr the SolrCloud cluster of the {@code solr} backend
 */
public record IndexSettings(
    BackendKind backend,
    EmbeddingModel model,
    VectorFormat vectorFormat,
    int chunkMaxTokens,
    int chunkOverlapTokens,
    int embedBatchSize,
    int maxChunksPerRecord,
    SummaryMode summaries,
    String summaryModel,
    Duration summaryRetryBackoff,
    SolrSettings solr) {

  /** The backends brain runs on. */
  public enum BackendKind {
    /** The Lucene index on this machine. */
    EMBEDDED,
    /** A SolrCloud collection ({@code index.solr.*}). */
    SOLR
  }

  /** These settings on the embedded backend (a Lucene index in the data directory). */
  IndexSettings embedded() {
    return with(BackendKind.EMBEDDED, vectorFormat, chunkMaxTokens, chunkOverlapTokens, solr);
  }

  /**
   * These settings with another vector format and chunking (checked when the index configuration is
   * made: {@link #toIndexConfig}).
   */
  public IndexSettings withIndexing(VectorFormat format, int maxTokens, int overlapTokens) {
    return with(backend, format, maxTokens, overlapTokens, solr);
  }

  /** These settings for an evaluation named {@code name}: on SolrCloud, a collection of its own. */
  IndexSettings forEvaluation(String name) {
    var own =
        new SolrSettings(
            solr.zkHosts(),
            solr.urls(),
            solr.collection() + "-eval-" + name,
            solr.shards(),
            solr.replicas());
    return with(backend, vectorFormat, chunkMaxTokens, chunkOverlapTokens, own);
  }

  private IndexSettings with(
      BackendKind backend, VectorFormat format, int maxTokens, int overlapTokens, SolrSettings on) {
    return new IndexSettings(
        backend,
        model,
        format,
        maxTokens,
        overlapTokens,
        embedBatchSize,
        maxChunksPerRecord,
        summaries,
        summaryModel,
        summaryRetryBackoff,
        on);
  }

  /**
   * The index configuration for {@code dataDir} (the index lives in {@code dataDir/index}).
   *
   * @param servers where the summary model's server is
   */
  public IndexConfig toIndexConfig(Path dataDir, ChatConfig servers) {
    return IndexConfig.defaults(dataDir)
        .withModel(model)
        .withVectorFormat(vectorFormat)
        .withChunking(chunkMaxTokens, chunkOverlapTokens)
        .withEmbedBatchSize(embedBatchSize)
        .withMaxChunksPerRecord(maxChunksPerRecord)
        .withSummaries(summaries)
        .withSummaryModel(summaryModelOn(servers));
  }

  private SummaryModel summaryModelOn(ChatConfig servers) {
    if (summaryModel == null || ChatModels.isExtractive(summaryModel)) {
      return null;
    }
    return SummaryModel.of(summaryModel, servers).withRetryBackoff(summaryRetryBackoff);
  }

  /** The {@code index.*} values of {@code r}: flag, environment, file or default. */
  static IndexSettings read(ConfigReader r) {
    var models = new LinkedHashMap<String, EmbeddingModel>();
    EmbeddingModel.bundled().forEach(m -> models.put(m.id(), m));
    var formats = new LinkedHashMap<String, VectorFormat>();
    for (VectorFormat f : VectorFormat.values()) {
      formats.put(f.name().toLowerCase(Locale.ROOT), f);
    }
    var d = IndexConfig.defaults(Path.of("."));
    var backends = new LinkedHashMap<String, BackendKind>();
    for (BackendKind b : BackendKind.values()) {
      backends.put(b.name().toLowerCase(Locale.ROOT), b);
    }
    BackendKind backend =
        r.choice("index.backend", "BRAIN_INDEX_BACKEND", BackendKind.EMBEDDED, backends);
    EmbeddingModel model = r.choice("index.model", "BRAIN_INDEX_MODEL", d.model(), models);
    VectorFormat format = r.choice("index.vector-format", null, d.vectorFormat(), formats);
    var summaryModes = new LinkedHashMap<String, SummaryMode>();
    for (SummaryMode m : SummaryMode.values()) {
      summaryModes.put(m.name().toLowerCase(Locale.ROOT), m);
    }
    int maxTokens = r.integer("index.chunk-max-tokens", null, d.chunkMaxTokens(), 16, 8192);
    return new IndexSettings(
        backend,
        model,
        format,
        maxTokens,
        r.integer("index.chunk-overlap-tokens", null, d.chunkOverlapTokens(), 0, maxTokens / 2),
        r.integer("index.embed-batch-size", null, d.embedBatchSize(), 1, 4096),
        r.integer("index.max-chunks-per-record", null, d.maxChunksPerRecord(), 1, 10_000_000),
        r.choice("index.summaries", null, d.summaries(), summaryModes),
        r.checked(
            "index.summary-model",
            null,
            null,
            ConfigValues::chatModel,
            "ollama/<model>, openai/<model>"),
        r.duration(
            "index.summary-retry-backoff", null, SummaryModel.DEFAULT_RETRY_BACKOFF, Duration.ZERO),
        SolrSettings.read(r));
  }
}
