package dev.brain.index;

import dev.brain.chunking.Chunker;
import dev.brain.index.importer.Importers;
import dev.brain.models.Embedder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * One incremental sync: walk the roots, read (files whose stamp changed only) and prepare records
 * on a helper thread, embed missing vectors in batches across records on the calling thread,
 * replace each changed record with its chunks in one atomic block, delete records whose files or
 * entries are gone, and commit periodically and at the end. With a summary model, the long records
 * are then summarized by it ({@link SummaryPass}) and the new summary chunks embedded. A partial
 * sync ({@link #runChanged}) reads and deletes only below the paths a watcher saw change.
 */
final class SyncRun {

  private static final int QUEUE_CAPACITY = 256;

  private final IndexConfig config;
  private final SyncStore store;
  // Model summaries are the embedded index's only: the summary pass and the preparer's reuse of a
  // stored model summary read and write Lucene. Null for any other store, which makes none.
  private final LuceneSyncStore lucene;
  private final Supplier<Embedder> embedder;
  private final Supplier<Chunker> chunker;
  private final EmbeddingCache cache;
  private final RecordPreparer.FileReader reader;
  private final Map<String, CollectionSync> lastSyncs;
  private final SyncListener listener;

  private final SyncIssueLog issues;
  private final SyncWalk walk;
  private final SyncCounts counts = new SyncCounts();
  private final AtomicInteger filesRead = new AtomicInteger();
  private final StaleRecords stale;
  private long lastCommitNanos;

  SyncRun(
      IndexConfig config,
      SyncStore store,
      Supplier<Embedder> embedder,
      Supplier<Chunker> chunker,
      EmbeddingCache cache,
      Importers importers,
      RecordPreparer.FileReader reader,
      Map<String, CollectionSync> lastSyncs,
      SyncListener listener) {
    this.config = config;
    this.store = store;
    this.lucene = store instanceof LuceneSyncStore l ? l : null;
    this.embedder = embedder;
    this.chunker = chunker;
    this.cache = cache;
    // Counted for the report: an unchanged folder is synced from its stamps, reading no file.
    this.reader =
        (file, root, collection) -> {
          filesRead.incrementAndGet();
          return reader.read(file, root, collection);
        };
    this.lastSyncs = lastSyncs;
    this.listener = listener;
    this.issues = new SyncIssueLog(listener);
    this.walk = new SyncWalk(importers, issues);
    this.stale = new StaleRecords(store, issues, listener, counts);
  }

  SyncReport run(List<CollectionRoot> collections) throws IOException {
    long start = System.nanoTime();
    lastCommitNanos = start;
    CollectionRoot.checkSyncable(collections);
    return execute(start, walk.walk(collections), collections, null);
  }

  /**
   * A sync of what lies at or below {@code changed} paths of one collection (a watcher's events):
   * only those files are read, and only records from files there are deleted when their file is
   * gone. The collection is still walked (listing folders is cheap; reading files is not) so its
   * excludes apply as in a full sync and its file count stays right.
   *
   * @param previous the collection's last recorded sync, whose issues outside {@code changed} still
   *     stand; {@code null} for none
   */
  SyncReport runChanged(CollectionRoot collection, Set<Path> changed, CollectionSync previous)
      throws IOException {
    long start = System.nanoTime();
    lastCommitNanos = start;
    CollectionRoot.checkSyncable(List.of(collection));
    List<Path> scope = changed.stream().map(p -> p.toAbsolutePath().normalize()).toList();
    List<RecordPreparer.FileTask> all = walk.walk(List.of(collection));
    issues.keepSkippedWithin(scope); // the walk reported them all
    var partial = new PartialSync(scope, all.size(), previous);
    var tasks = all.stream().filter(t -> partial.covers(t.file())).toList();
    return execute(start, tasks, List.of(collection), partial);
  }

  /**
   * Adds or replaces records a caller handed over directly (no file behind them): unchanged ones
   * are skipped, nothing is deleted. Issues are reported under the label {@link #GIVEN}.
   */
  SyncReport put(List<CorpusRecord> records) throws IOException {
    long start = System.nanoTime();
    var task = new RecordPreparer.FileTask(GIVEN, null, List.copyOf(records));
    return execute(start, List.of(task), List.of(), null);
  }

  /** The label under which directly handed-over records are reported. */
  static final Path GIVEN = Path.of("(records)");

  /**
   * Reads, prepares and writes {@code files}; deletes the stale records of {@code collections}
   * (none for records handed over directly), then embeds what is missing.
   */
  private SyncReport execute(
      long start,
      List<RecordPreparer.FileTask> files,
      List<CollectionRoot> collections,
      PartialSync partial)
      throws IOException {
    lastCommitNanos = start;
    long cacheHitsBefore = cache.hits();
    listener.filesPlanned(files.size());
    Map<String, IndexReads.RecordState> states = store.recordStates();
    Map<String, FileStates.FileState> fileStates = store.fileStates();
    Set<String> produced = readAndWrite(files, collections, states, fileStates);
    stale.deleteStale(states, produced, collections, partial);
    stale.forgetGoneFiles(fileStates, files, collections, partial);
    // Lexical first: every record and its BM25-searchable chunks are committed before embedding.
    // An unchanged sync wrote nothing: its one commit is the final one.
    if (store.hasUncommittedChanges()) {
      commit(false);
    }
    listener.lexicalCommitted(counts.written());
    SummaryPass.Outcome summaries = embedAndSummarize();
    commit(true, outcomes(collections, files, partial));
    return counts.report(
        files.size(),
        filesRead.get(),
        walk.allAttachments(),
        issues.issues(),
        cache.hits() - cacheHitsBefore,
        start,
        summaries);
  }

  /**
   * Reads and prepares {@code files} on a helper thread while this one writes what it hands over;
   * returns the keys produced this run.
   */
  private Set<String> readAndWrite(
      List<RecordPreparer.FileTask> files,
      List<CollectionRoot> collections,
      Map<String, IndexReads.RecordState> states,
      Map<String, FileStates.FileState> fileStates)
      throws IOException {
    BlockingQueue<SyncItem> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    var preparer =
        new RecordPreparer(
            files,
            reader,
            states,
            fileStates,
            walk.trusted(collections, lastSyncs),
            ChunkCap.of(config),
            config.summaries(),
            modelSummaries() ? config.summaryModel().versionPrefix() : null,
            chunker,
            lucene == null ? null : lucene.searchers(),
            cache,
            store,
            queue);
    Thread reader = Thread.ofPlatform().name("brain-sync-reader").daemon().start(preparer);
    try {
      return consume(queue, reader);
    } catch (IOException | RuntimeException | Error e) {
      reader.interrupt();
      throw e;
    } finally {
      joinQuietly(reader);
    }
  }

  /**
   * Embeds the chunks written without a vector; with a summary model, then summarizes the long
   * records (each was searchable and embedded before the model saw it) and embeds the summaries.
   */
  private SummaryPass.Outcome embedAndSummarize() throws IOException {
    counts.addEmbedding(
        new EmbedPass(config, store, embedder, cache, listener, this::commitIfDue).run());
    if (!modelSummaries()) {
      return new SummaryPass.Outcome(0, 0);
    }
    var summaries =
        new SummaryPass(
                config,
                lucene.writer(),
                lucene.searchers(),
                chunker,
                cache,
                listener,
                this::commitIfDue)
            .run();
    counts.addEmbedding(
        new EmbedPass(config, store, embedder, cache, listener, this::commitIfDue).run());
    return summaries;
  }

  /** Whether this sync has a summary model summarize long records (embedded index only). */
  private boolean modelSummaries() {
    return config.summaryModel() != null && lucene != null;
  }

  /** Drains the queue until the reader is done; returns the keys produced this run. */
  private Set<String> consume(BlockingQueue<SyncItem> queue, Thread reader) throws IOException {
    while (true) {
      SyncItem item = queue.poll();
      if (item == null) {
        item = take(queue, reader);
      }
      switch (item) {
        case SyncItem.Prepared p -> {
          write(p);
          commitIfDue();
        }
        case SyncItem.Unchanged u -> {
          counts.unchanged++;
          listener.recordDone(u.key(), SyncListener.Change.UNCHANGED);
        }
        case SyncItem.FileStarted f -> listener.fileStarted(f.file(), f.records());
        case SyncItem.FileRead f -> {
          issues.fileRead(f);
          stale.rememberFile(f);
        }
        case SyncItem.FileIssue f -> {
          issues.fileIssue(f);
          stale.forgetFile(f.file());
        }
        case SyncItem.Failure f -> throw readerFailure(f.error());
        case SyncItem.End end -> {
          return end.keys();
        }
      }
    }
  }

  /** Rethrows what broke the reading thread with its own type where possible. */
  private static IOException readerFailure(Throwable error) throws IOException {
    switch (error) {
      case IOException io -> throw io;
      case RuntimeException re -> throw re;
      case Error e -> throw e;
      default -> throw new IOException("the sync reader failed", error);
    }
  }

  /** The next item; fails instead of waiting forever if the reader died without a word. */
  private static SyncItem take(BlockingQueue<SyncItem> queue, Thread reader) {
    try {
      while (true) {
        SyncItem item = queue.poll(1, TimeUnit.SECONDS);
        if (item != null) {
          return item;
        }
        if (!reader.isAlive() && queue.isEmpty()) {
          throw new IllegalStateException("the sync reader thread stopped without finishing");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("sync interrupted", e);
    }
  }

  private void commitIfDue() throws IOException {
    if (System.nanoTime() - lastCommitNanos >= config.commitInterval().toNanos()) {
      commit(false);
    }
  }

  private List<CollectionSync> outcomes(
      List<CollectionRoot> collections, List<RecordPreparer.FileTask> files, PartialSync partial) {
    Instant now = Instant.now();
    var out = new ArrayList<CollectionSync>();
    for (CollectionRoot c : collections) {
      if (partial != null) {
        // Files outside the changed paths were not read against this walk's names: keep the old.
        String reading = partial.previous() == null ? null : partial.previous().reading();
        out.add(
            CollectionSync.of(
                c, now, partial.files(), walk.attachmentsOf(c), issues.issues(partial), reading));
        continue;
      }
      int count = (int) files.stream().filter(f -> f.collection().equals(c)).count();
      out.add(
          CollectionSync.of(
              c, now, count, walk.attachmentsOf(c), issues.issues(), walk.reading(c)));
    }
    return out;
  }

  private void commit(boolean complete) throws IOException {
    commit(complete, List.of());
  }

  private void commit(boolean complete, List<CollectionSync> synced) throws IOException {
    store.commit(complete, synced);
    lastCommitNanos = System.nanoTime();
    listener.committed(counts.written());
  }

  /**
   * Replaces the record and all its chunks in one atomic block update; chunks whose vector the
   * index did not hold are written without one, for the embedding pass.
   */
  private void write(SyncItem.Prepared p) throws IOException {
    CorpusRecord record = p.record();
    store.write(p);
    counts.chunksWritten += p.chunks().size();
    counts.chunksReused += p.chunks().size() - p.missing();
    if (p.isNew()) {
      counts.added++;
    } else {
      counts.updated++;
    }
    listener.recordDone(
        record.key(), p.isNew() ? SyncListener.Change.ADDED : SyncListener.Change.UPDATED);
  }

  private static void joinQuietly(Thread thread) {
    try {
      thread.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
