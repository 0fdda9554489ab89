package dev.brain.index;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.chunking.Chunker;
import dev.brain.chunking.ExtractiveSummary;
import dev.brain.models.chat.ChatException;
import dev.brain.models.chat.ChatListener;
import dev.brain.models.chat.ChatMessage;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatModels;
import dev.brain.models.chat.ChatRequest;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.util.Bits;

/**
 * The third part of a sync with a summary model ({@link IndexConfig#summaryModel()}), after the
 * lexical commit and the vectors: asks the model for the summary of every long record whose stored
 * summary is not the current model's version of its current text, and rewrites the record with it
 * as its summary and summary chunks (embedded by the vector pass that follows). A record whose
 * model call fails keeps the summary it has (its extractive one), with the reason and the time of
 * its next try stored on it; a later sync tries it again once that time has passed. A model server
 * that cannot be reached, or does not answer within the model's timeout, ends the pass at its first
 * failure: the other records wait for the next sync instead of failing one by one.
 */
final class SummaryPass {

  /**
   * What the pass did.
   *
   * @param made records given a model summary
   * @param failed records whose model call failed
   */
  record Outcome(int made, int failed) {}

  /** The most characters of a record the model reads. */
  static final int MAX_INPUT_CHARS = 12_000;

  /** The most characters of a model summary kept. */
  static final int MAX_SUMMARY_CHARS = 4_000;

  private static final String INSTRUCTIONS =
      "You write the summary of one document for a search index. In 3 to 6 plain sentences, say"
          + " what the document is about and its main points, using its own terms and names. No"
          + " preamble, no headings, no lists, no markdown.";

  private final IndexConfig config;
  private final IndexWriter writer;
  private final SearcherManager searchers;
  private final Supplier<Chunker> chunker;
  private final EmbeddingCache cache;
  private final SyncListener listener;
  private final EmbedPass.Checkpoint checkpoint;
  private int made;
  private int failed;

  SummaryPass(
      IndexConfig config,
      IndexWriter writer,
      SearcherManager searchers,
      Supplier<Chunker> chunker,
      EmbeddingCache cache,
      SyncListener listener,
      EmbedPass.Checkpoint checkpoint) {
    this.config = config;
    this.writer = writer;
    this.searchers = searchers;
    this.chunker = chunker;
    this.cache = cache;
    this.listener = listener;
    this.checkpoint = checkpoint;
  }

  Outcome run() throws IOException {
    SummaryModel model = config.summaryModel();
    searchers.maybeRefreshBlocking();
    List<String> due = due(model, Instant.now());
    if (due.isEmpty()) {
      return new Outcome(0, 0);
    }
    listener.summariesPlanned(due.size());
    try (ChatModel chat = ChatModels.open(model.spec(), model.servers())) {
      for (String key : due) {
        boolean goOn = summarize(model, chat, key);
        checkpoint.maybeCommit();
        if (!goOn) {
          break;
        }
      }
    }
    return new Outcome(made, failed);
  }

  /** Keys of the records to summarize now. */
  private List<String> due(SummaryModel model, Instant now) throws IOException {
    var keys = new ArrayList<String>();
    IndexSearcher searcher = searchers.acquire();
    try {
      for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
        addDue(leaf.reader(), model, now, keys);
      }
    } finally {
      searchers.release(searcher);
    }
    return keys;
  }

  private static void addDue(LeafReader reader, SummaryModel model, Instant now, List<String> out)
      throws IOException {
    Bits live = reader.getLiveDocs();
    SortedSetDocValues keys = DocValues.getSortedSet(reader, IndexFields.KEY);
    SortedSetDocValues sources = DocValues.getSortedSet(reader, IndexFields.SUMMARY_SOURCE);
    SortedSetDocValues versions = DocValues.getSortedSet(reader, IndexFields.SUMMARY_VERSION);
    SortedSetDocValues failures = DocValues.getSortedSet(reader, IndexFields.SUMMARY_FAILURE);
    for (int doc = keys.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = keys.nextDoc()) {
      if (live != null && !live.get(doc)) {
        continue;
      }
      String source = IndexReads.first(sources, doc);
      if (source == null || SummarySource.IMPORTED.wireName().equals(source)) {
        continue; // short, or its own summary wins
      }
      if (failures.advanceExact(doc)) {
        if (!retryDue(reader, doc, now)) {
          continue;
        }
      } else if (SummarySource.MODEL.wireName().equals(source)) {
        String version = IndexReads.first(versions, doc);
        if (version != null && version.startsWith(model.versionPrefix())) {
          continue; // a changed text comes back from the sync as extractive: this one is current
        }
      }
      out.add(IndexReads.first(keys, doc));
    }
  }

  private static boolean retryDue(LeafReader reader, int doc, Instant now) throws IOException {
    Document stored = reader.storedFields().document(doc, Set.of(IndexFields.SUMMARY_RETRY_AT));
    var at = stored.getField(IndexFields.SUMMARY_RETRY_AT);
    return at == null || at.numericValue().longValue() <= now.toEpochMilli();
  }

  /**
   * Summarizes one record, or records why not.
   *
   * @return false when the model cannot be reached (or may not be called) at all, or the sync is
   *     being stopped: asking about the other records this sync would fail the same way, so they
   *     wait for the next sync
   */
  private boolean summarize(SummaryModel model, ChatModel chat, String key) throws IOException {
    StoredBlock block = load(key);
    if (block == null) {
      return true;
    }
    String input = input(block.record());
    String version = model.version(CorpusRecord.sha256(input).substring(0, 16));
    if (version.equals(block.summary().version()) && block.summary().failure() == null) {
      return true;
    }
    String summary;
    try {
      summary = ask(model, chat, input);
    } catch (ChatException e) {
      if (e.kind() == ChatException.Kind.CANCELLED) {
        return false; // the sync is being stopped: not the record's failure
      }
      fail(model, block, e.getMessage());
      return switch (e.kind()) {
        // a server that does not answer in time will not answer the next record either
        case UNAVAILABLE, REFUSED, CANCELLED, TIMEOUT -> false;
        case PROTOCOL -> true;
      };
    }
    if (summary.isBlank()) {
      fail(model, block, "the model " + model.spec() + " answered no summary text");
      return true;
    }
    withSummary(block, summary, version).write(writer);
    made++;
    listener.recordSummarized(key, true);
    return true;
  }

  /**
   * The record as the pass found it: the searcher refreshed when the pass began sees every due
   * record, and the pass writes each one once, so it needs no refresh (a flushed segment) per
   * record.
   */
  private StoredBlock load(String key) throws IOException {
    IndexSearcher searcher = searchers.acquire();
    try {
      return StoredBlock.load(searcher, key, config.model().dimension(), cache);
    } finally {
      searchers.release(searcher);
    }
  }

  /** What the model reads: the title, then the text, cut at {@link #MAX_INPUT_CHARS}. */
  static String input(CorpusRecord record) {
    String text = record.text();
    if (text.length() > MAX_INPUT_CHARS) {
      text = text.substring(0, MAX_INPUT_CHARS);
    }
    String title = record.title();
    return title == null || title.isBlank() ? text : "Title: " + title.strip() + "\n\n" + text;
  }

  private static String ask(SummaryModel model, ChatModel chat, String input) throws ChatException {
    var request =
        new ChatRequest(
            List.of(ChatMessage.system(INSTRUCTIONS), ChatMessage.user(input)),
            model.timeout(),
            false,
            0.0,
            400,
            List.of());
    String text = chat.chat(request, ChatListener.NONE).content();
    text = text == null ? "" : text.strip();
    return text.length() > MAX_SUMMARY_CHARS ? text.substring(0, MAX_SUMMARY_CHARS) : text;
  }

  /** The block with the summary chunks of {@code summary} in place of the summary chunks it had. */
  private StoredBlock withSummary(StoredBlock block, String summary, String version) {
    CorpusRecord record = block.record().withSummary(summary);
    var chunks = new ArrayList<Chunk>();
    var hashes = new ArrayList<String>();
    var vectors = new ArrayList<float[]>();
    for (int i = 0; i < block.chunks().size(); i++) {
      if (block.chunks().get(i).role() != ChunkRole.SUMMARY) {
        chunks.add(block.chunks().get(i));
        hashes.add(block.embedHashes().get(i));
        vectors.add(block.vectors()[i]);
      }
    }
    int textChunks = chunks.size();
    var part = new ExtractiveSummary.Part(0, summary.length(), List.of());
    RecordChunks.addSummary(
        chunker.get(), record.key(), summary, part, config.maxChunksPerRecord(), chunks);
    for (Chunk c : chunks.subList(textChunks, chunks.size())) {
      String hash = EmbeddingInput.hash(record, c);
      hashes.add(hash);
      vectors.add(cache.find(hash)); // null: the vector pass that follows embeds it
    }
    return new StoredBlock(
        record,
        block.contentHash(),
        SummaryState.model(version),
        block.collection(),
        block.chunking(),
        chunks,
        hashes,
        vectors.toArray(float[][]::new));
  }

  /** Rewrites the record as it is, with the failure and the time of its next try. */
  private void fail(SummaryModel model, StoredBlock block, String reason) throws IOException {
    SummaryState state = block.summary();
    Instant retry = Instant.now().plus(model.retryAfter(state.attempts() + 1));
    new StoredBlock(
            block.record(),
            block.contentHash(),
            state.failed(reason, retry),
            block.collection(),
            block.chunking(),
            block.chunks(),
            block.embedHashes(),
            block.vectors())
        .write(writer);
    failed++;
    listener.recordSummarized(block.record().key(), false);
  }
}
