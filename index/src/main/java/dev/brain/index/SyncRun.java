package dev.brain.index;

import dev.brain.chunking.Chunker;
import dev.brain.index.importer.Importers;
import dev.brain.models.Embedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;

/**
 * One incremental sync: walk the roots, read and prepare records on a helper thread, embed missing
 * vectors in batches across records on the calling thread, replace each changed record with its
 * chunks in one atomic block, delete records whose files or entries are gone, and commit
 * periodically and at the end.
 */
final class SyncRun {

  /** Commits the writer and refreshes the searchers. */
  interface Committer {
    /**
     * @param complete true for the final commit of a sync, which records the sync time
     */
    void commit(boolean complete) throws IOException;
  }

  private static final int QUEUE_CAPACITY = 256;

  private final IndexConfig config;
  private final IndexWriter writer;
  private final SearcherManager searchers;
  private final Supplier<Embedder> embedder;
  private final Supplier<Chunker> chunker;
  private final Importers importers;
  private final SyncListener listener;
  private final Committer committer;

  private final List<SyncItem.Prepared> pending = new ArrayList<>();
  private final List<SyncReport.FileIssue> skipped = new ArrayList<>();
  private final List<SyncReport.FileIssue> failed = new ArrayList<>();
  private final List<SyncReport.FileIssue> warnings = new ArrayList<>();
  private final Set<String> unreadOrigins = new HashSet<>();
  private int pendingMissing;
  private int added;
  private int updated;
  private int unchanged;
  private int deleted;
  private long chunksWritten;
  private long chunksEmbedded;
  private long chunksReused;
  private long embedNanos;
  private long lastCommitNanos;

  SyncRun(
      IndexConfig config,
      IndexWriter writer,
      SearcherManager searchers,
      Supplier<Embedder> embedder,
      Supplier<Chunker> chunker,
      Importers importers,
      SyncListener listener,
      Committer committer) {
    this.config = config;
    this.writer = writer;
    this.searchers = searchers;
    this.embedder = embedder;
    this.chunker = chunker;
    this.importers = importers;
    this.listener = listener;
    this.committer = committer;
  }

  SyncReport run(List<Path> roots) throws IOException {
    long start = System.nanoTime();
    List<Path> normalized = normalize(roots);
    return execute(start, walk(normalized), normalized);
  }

  /**
   * Adds or replaces records a caller handed over directly (no file behind them): unchanged ones
   * are skipped, nothing is deleted. Issues are reported under the label {@link #GIVEN}.
   */
  SyncReport put(List<CorpusRecord> records) throws IOException {
    long start = System.nanoTime();
    var task = new RecordPreparer.FileTask(GIVEN, GIVEN, List.copyOf(records));
    return execute(start, List.of(task), null);
  }

  /** The label under which directly handed-over records are reported. */
  static final Path GIVEN = Path.of("(records)");

  /**
   * Reads, prepares and writes {@code files}; deletes stale records under {@code roots}, if any.
   */
  private SyncReport execute(long start, List<RecordPreparer.FileTask> files, List<Path> roots)
      throws IOException {
    lastCommitNanos = start;
    listener.filesPlanned(files.size());

    Map<String, IndexReads.RecordState> states = recordStates();
    BlockingQueue<SyncItem> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    var preparer =
        new RecordPreparer(
            files,
            importers,
            states,
            config.chunkingSignature(),
            chunker,
            searchers,
            config.model().dimension(),
            queue);
    Thread reader = Thread.ofPlatform().name("brain-sync-reader").daemon().start(preparer);
    Set<String> produced;
    try {
      produced = consume(queue, reader);
    } catch (IOException | RuntimeException | Error e) {
      reader.interrupt();
      throw e;
    } finally {
      joinQuietly(reader);
    }
    if (roots != null) {
      deleteStale(states, produced, roots);
    }
    commit(true);
    return new SyncReport(
        files.size(),
        added,
        updated,
        unchanged,
        deleted,
        skipped,
        failed,
        warnings,
        chunksWritten,
        chunksEmbedded,
        chunksReused,
        Duration.ofNanos(System.nanoTime() - start),
        Duration.ofNanos(embedNanos));
  }

  private static List<Path> normalize(List<Path> roots) throws IOException {
    if (roots.isEmpty()) {
      throw new IllegalArgumentException("sync needs at least one file or folder to import");
    }
    var normalized = new ArrayList<Path>();
    for (Path root : roots) {
      Path abs = root.toAbsolutePath().normalize();
      if (!Files.exists(abs)) {
        throw new NoSuchFileException(abs.toString(), null, "no such file or folder to import");
      }
      normalized.add(abs);
    }
    return normalized;
  }

  /** Every file under every root, each once (the first root that lists it wins). */
  private List<RecordPreparer.FileTask> walk(List<Path> roots) throws IOException {
    var files = new LinkedHashMap<Path, Path>();
    for (Path root : roots) {
      for (Path file : importers.walk(root, this::skippedByWalk)) {
        files.putIfAbsent(file.toAbsolutePath().normalize(), root);
      }
    }
    var tasks = new ArrayList<RecordPreparer.FileTask>(files.size());
    files.forEach((file, root) -> tasks.add(new RecordPreparer.FileTask(file, root)));
    return tasks;
  }

  /** A link or special file the walk left out: listed in the report as skipped. */
  private void skippedByWalk(Path file, String reason) {
    skipped.add(new SyncReport.FileIssue(file, reason));
    listener.fileFailed(file, reason, true);
  }

  private Map<String, IndexReads.RecordState> recordStates() throws IOException {
    searchers.maybeRefreshBlocking();
    IndexSearcher searcher = searchers.acquire();
    try {
      return IndexReads.recordStates(searcher);
    } finally {
      searchers.release(searcher);
    }
  }

  /** Drains the queue until the reader is done; returns the keys produced this run. */
  private Set<String> consume(BlockingQueue<SyncItem> queue, Thread reader) throws IOException {
    while (true) {
      SyncItem item = queue.poll();
      if (item == null) {
        flush(); // the reader is behind: embed what we have rather than wait idle
        item = take(queue, reader);
      }
      switch (item) {
        case SyncItem.Prepared p -> addPending(p);
        case SyncItem.Unchanged u -> {
          unchanged++;
          listener.recordDone(u.key(), SyncListener.Change.UNCHANGED);
        }
        case SyncItem.FileStarted f -> listener.fileStarted(f.file(), f.records());
        case SyncItem.FileRead f -> fileRead(f);
        case SyncItem.FileIssue f -> fileIssue(f);
        case SyncItem.Failure f -> throw readerFailure(f.error());
        case SyncItem.End end -> {
          flush();
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

  private void fileRead(SyncItem.FileRead f) {
    for (String warning : f.warnings()) {
      warnings.add(new SyncReport.FileIssue(f.file(), warning));
      listener.fileWarning(f.file(), warning);
    }
    listener.fileDone(f.file(), f.records());
  }

  private void fileIssue(SyncItem.FileIssue f) {
    var issue = new SyncReport.FileIssue(f.file(), f.reason());
    (f.skipped() ? skipped : failed).add(issue);
    unreadOrigins.add(f.file().toString());
    listener.fileFailed(f.file(), f.reason(), f.skipped());
  }

  private void addPending(SyncItem.Prepared p) throws IOException {
    pending.add(p);
    pendingMissing += p.missing();
    if (pendingMissing >= config.embedBatchSize()) {
      flush();
    }
  }

  /** Embeds the missing vectors of all pending records in one call, then writes the records. */
  private void flush() throws IOException {
    if (pending.isEmpty()) {
      return;
    }
    embedMissing();
    for (SyncItem.Prepared p : pending) {
      write(p);
    }
    pending.clear();
    pendingMissing = 0;
    if (System.nanoTime() - lastCommitNanos >= config.commitInterval().toNanos()) {
      commit(false);
    }
  }

  private void commit(boolean complete) throws IOException {
    committer.commit(complete);
    lastCommitNanos = System.nanoTime();
    listener.committed(added + updated);
  }

  private void embedMissing() {
    // Identical inputs within the batch are embedded once.
    var slots = new LinkedHashMap<String, String>();
    for (SyncItem.Prepared p : pending) {
      for (int i = 0; i < p.chunks().size(); i++) {
        if (p.vectors()[i] == null && !slots.containsKey(p.embedHashes().get(i))) {
          slots.put(p.embedHashes().get(i), EmbeddingInput.of(p.record(), p.chunks().get(i)));
        }
      }
    }
    if (slots.isEmpty()) {
      return;
    }
    long t0 = System.nanoTime();
    List<float[]> vectors = embedder.get().embedPassages(List.copyOf(slots.values()));
    embedNanos += System.nanoTime() - t0;
    checkShape(vectors, slots.size());
    var byHash = new HashMap<String, float[]>();
    int i = 0;
    for (String hash : slots.keySet()) {
      byHash.put(hash, vectors.get(i++));
    }
    for (SyncItem.Prepared p : pending) {
      for (int j = 0; j < p.chunks().size(); j++) {
        if (p.vectors()[j] == null) {
          p.vectors()[j] = byHash.get(p.embedHashes().get(j));
        } else {
          chunksReused++;
        }
      }
    }
    chunksEmbedded += slots.size();
    listener.chunksEmbedded(slots.size());
  }

  private void checkShape(List<float[]> vectors, int expected) {
    int dimension = config.model().dimension();
    if (vectors.size() != expected
        || vectors.stream().anyMatch(v -> v == null || v.length != dimension)) {
      throw new IllegalStateException(
          "the embedder returned "
              + vectors.size()
              + " vectors for "
              + expected
              + " passages, or vectors not of dimension "
              + dimension);
    }
  }

  /** Replaces the record and all its chunks in one atomic block update. */
  private void write(SyncItem.Prepared p) throws IOException {
    CorpusRecord record = p.record();
    writer.updateDocuments(
        Documents.parentTerm(record.key()),
        Documents.block(
            record, config.chunkingSignature(), p.chunks(), p.embedHashes(), List.of(p.vectors())));
    chunksWritten += p.chunks().size();
    if (p.isNew()) {
      added++;
    } else {
      updated++;
    }
    listener.recordDone(
        record.key(), p.isNew() ? SyncListener.Change.ADDED : SyncListener.Change.UPDATED);
  }

  /**
   * Deletes records that came from a file under a synced root but were not produced this run: the
   * file is gone, or the entry left its JSONL/feed file. Files that failed to read keep theirs.
   */
  private void deleteStale(
      Map<String, IndexReads.RecordState> states, Set<String> produced, List<Path> roots)
      throws IOException {
    for (var entry : states.entrySet()) {
      String key = entry.getKey();
      String origin = entry.getValue().origin();
      if (produced.contains(key) || origin == null || unreadOrigins.contains(origin)) {
        continue;
      }
      if (isUnder(origin, roots)) {
        writer.deleteDocuments(Documents.parentTerm(key));
        deleted++;
        listener.recordDone(key, SyncListener.Change.DELETED);
      }
    }
  }

  private static boolean isUnder(String origin, List<Path> roots) {
    Path path = Path.of(origin);
    return roots.stream().anyMatch(path::startsWith);
  }

  private static void joinQuietly(Thread thread) {
    try {
      thread.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
