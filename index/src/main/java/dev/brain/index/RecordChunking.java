package dev.brain.index;

import static dev.brain.index.IndexFields.KEY;
import static dev.brain.index.IndexFields.SUMMARY;
import static dev.brain.index.IndexFields.SUMMARY_SOURCE;
import static dev.brain.index.IndexFields.SUMMARY_VERSION;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.chunking.Chunker;
import dev.brain.index.importer.ImportException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;

/**
 * One record made ready to write, for {@link RecordPreparer}: skipped when its content hash and
 * chunking are the stored ones, else chunked (keeping a current model summary) with the vectors the
 * index or the embedding cache already hold for its embedding inputs.
 */
final class RecordChunking {

  private final Map<String, IndexReads.RecordState> states;
  private final ChunkCap cap;
  private final SummaryMode summaries;
  private final String modelSummaries; // the summary model's version prefix, or null
  private final Supplier<Chunker> chunker;
  private final SearcherManager searchers;
  private final EmbeddingCache cache;
  private final SyncStore store;

  RecordChunking(
      Map<String, IndexReads.RecordState> states,
      ChunkCap cap,
      SummaryMode summaries,
      String modelSummaries,
      Supplier<Chunker> chunker,
      SearcherManager searchers,
      EmbeddingCache cache,
      SyncStore store) {
    this.states = states;
    this.cap = cap;
    this.summaries = summaries;
    this.modelSummaries = modelSummaries;
    this.chunker = chunker;
    this.searchers = searchers;
    this.cache = cache;
    this.store = store;
  }

  /**
   * The record ready to write, or {@link SyncItem.Unchanged}; a record the chunk cap cuts (now, or
   * when it was written) adds the reason to {@code truncated}.
   */
  SyncItem prepare(Path file, CorpusRecord record, String collection, List<String> truncated)
      throws IOException {
    IndexReads.RecordState state = states.get(record.key());
    if (state != null
        && record.contentHash().equals(state.contentHash())
        && collection.equals(state.collection())) {
      if (cap.signature().equals(state.chunking())) {
        return new SyncItem.Unchanged(record.key());
      }
      OptionalInt cut = cap.cutAt(state.chunking());
      if (cut.isPresent()) {
        truncated.add(cap.reason(record.key(), cut.getAsInt(), record.text().length()));
        return new SyncItem.Unchanged(record.key());
      }
    }
    Chunker c = chunker.get(); // loads the model on first need; a failure here stops the sync
    boolean sameText = state != null && record.contentHash().equals(state.contentHash());
    Document kept = sameText ? currentModelSummary(record) : null;
    RecordChunks.Split split;
    try {
      CorpusRecord source = kept == null ? record : record.withSummary(kept.get(SUMMARY));
      split = RecordChunks.split(c, source, cap.maxChunks(), summaries);
    } catch (RuntimeException | StackOverflowError e) {
      // Odd input must cost its file, not the sync.
      return new SyncItem.FileIssue(
          file,
          "record " + record.key() + " could not be chunked: " + ImportException.plainReason(e),
          false);
    }
    List<Chunk> chunks = split.chunks();
    CorpusRecord stored = record.withSummary(split.summary());
    SummaryState summary =
        kept != null
            ? SummaryState.model(kept.get(SUMMARY_VERSION))
            : SummaryState.of(split.source() == null ? null : split.source().wireName());
    String signature = cap.signature();
    OptionalInt cut =
        cap.cut(chunks.stream().filter(k -> k.role() != ChunkRole.SUMMARY).toList(), record.text());
    if (cut.isPresent()) {
      signature = cap.truncated(cut.getAsInt());
      truncated.add(cap.reason(record.key(), cut.getAsInt(), record.text().length()));
    }
    List<String> hashes = chunks.stream().map(chunk -> EmbeddingInput.hash(record, chunk)).toList();
    return new SyncItem.Prepared(
        stored,
        record.contentHash(),
        summary,
        collection,
        signature,
        state == null,
        chunks,
        hashes,
        storedVectors(hashes));
  }

  /**
   * The stored record document of a record whose text did not change (it is only chunked again)
   * when its summary is the current summary model's: that summary is kept, not asked for again.
   * {@code null} otherwise, or when the record brings a summary of its own.
   */
  private Document currentModelSummary(CorpusRecord record) throws IOException {
    if (modelSummaries == null || record.summary() != null) {
      return null;
    }
    IndexSearcher searcher = searchers.acquire();
    try {
      TopDocs hits = searcher.search(new TermQuery(new Term(KEY, record.key())), 1);
      if (hits.scoreDocs.length == 0) {
        return null;
      }
      Document doc =
          searcher
              .storedFields()
              .document(hits.scoreDocs[0].doc, Set.of(SUMMARY, SUMMARY_SOURCE, SUMMARY_VERSION));
      String version = doc.get(SUMMARY_VERSION);
      boolean current =
          SummarySource.MODEL.wireName().equals(doc.get(SUMMARY_SOURCE))
              && version != null
              && version.startsWith(modelSummaries)
              && doc.get(SUMMARY) != null;
      return current ? doc : null;
    } finally {
      searchers.release(searcher);
    }
  }

  /**
   * Vectors of embedding inputs the store already holds, else the embedding cache; {@code null} for
   * the rest.
   */
  private float[][] storedVectors(List<String> embedHashes) throws IOException {
    float[][] vectors = store.storedVectors(embedHashes);
    for (int i = 0; i < embedHashes.size(); i++) {
      if (vectors[i] == null) {
        vectors[i] = cache.find(embedHashes.get(i));
      }
    }
    return vectors;
  }
}
