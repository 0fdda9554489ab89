package dev.brain.index;

import static dev.brain.index.IndexFields.KEY;
import static dev.brain.index.IndexFields.SUMMARY;
import static dev.brain.index.IndexFields.SUMMARY_SOURCE;
import static dev.brain.index.IndexFields.SUMMARY_VERSION;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.chunking.Chunker;
import dev.brain.index.importer.ImportException;
import dev.brain.index.importer.ImportResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.function.Supplier;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;

/**
 * The reading side of a sync, run on its own thread: a file whose stamp (size, times, file key) is
 * the one stored when it was last read is not opened at all, its records reported unchanged from
 * the stored state; other files are read, unchanged records skipped by content hash, the rest
 * chunked and their reusable vectors looked up; everything is handed on through a bounded queue so
 * the writing thread can keep the embedder busy.
 */
final class RecordPreparer implements Runnable {

  /** Reads one file of a collection into records: the importers, or a test's count of them. */
  @FunctionalInterface
  interface FileReader {
    ImportResult read(Path file, Path root, String collection) throws ImportException;
  }

  /**
   * A file to read and the collection it was found in; or, with {@code given} set, records a caller
   * handed over directly, reported under the label {@code file} and kept in no collection of files
   * (their collection is {@link #GIVEN_COLLECTION}).
   */
  record FileTask(Path file, CollectionRoot collection, List<CorpusRecord> given) {
    FileTask(Path file, CollectionRoot collection) {
      this(file, collection, null);
    }

    String collectionName() {
      return given != null ? GIVEN_COLLECTION : collection.name();
    }
  }

  /** The collection of records a Java caller handed over directly, without files. */
  static final String GIVEN_COLLECTION = "(records)";

  private final List<FileTask> files;
  private final FileReader reader;
  private final Map<String, IndexReads.RecordState> states;
  private final Map<String, FileStates.FileState> fileStates;
  private final Set<String> trusted; // collections whose file stamps may be trusted this run
  private final ChunkCap cap;
  private final SummaryMode summaries;
  private final String modelSummaries; // the summary model's version prefix, or null
  private final Supplier<Chunker> chunker;
  private final SearcherManager searchers;
  private final EmbeddingCache cache;
  private final int dimension;
  private final BlockingQueue<SyncItem> queue;
  private final Map<String, Path> produced = new HashMap<>();

  RecordPreparer(
      List<FileTask> files,
      FileReader reader,
      Map<String, IndexReads.RecordState> states,
      Map<String, FileStates.FileState> fileStates,
      Set<String> trusted,
      ChunkCap cap,
      SummaryMode summaries,
      String modelSummaries,
      Supplier<Chunker> chunker,
      SearcherManager searchers,
      EmbeddingCache cache,
      int dimension,
      BlockingQueue<SyncItem> queue) {
    this.files = files;
    this.reader = reader;
    this.states = states;
    this.fileStates = fileStates;
    this.trusted = trusted;
    this.cap = cap;
    this.summaries = summaries;
    this.modelSummaries = modelSummaries;
    this.chunker = chunker;
    this.searchers = searchers;
    this.cache = cache;
    this.dimension = dimension;
    this.queue = queue;
  }

  @Override
  public void run() {
    try {
      for (FileTask task : files) {
        readFile(task);
      }
      queue.put(new SyncItem.End(Set.copyOf(produced.keySet())));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the writing side gave up; stop quietly
    } catch (Throwable e) {
      try {
        queue.put(new SyncItem.Failure(e)); // blocks until the writing side makes room
      } catch (InterruptedException stopped) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void readFile(FileTask task) throws InterruptedException, IOException {
    String tooLarge = task.given() != null ? null : sizeIssue(task);
    if (tooLarge != null) {
      queue.put(new SyncItem.FileIssue(task.file(), tooLarge, true));
      return;
    }
    CollectionRoot collection = task.collection();
    String stamp = null;
    if (task.given() == null) {
      stamp = FileStates.stamp(task.file(), Instant.now()); // before reading: a change shows later
      if (stamp != null && unchangedByStamp(task, stamp)) {
        return;
      }
    }
    ImportResult result;
    try {
      result =
          task.given() != null
              ? new ImportResult(task.given(), List.of())
              : reader.read(task.file(), collection.root(), collection.name());
    } catch (ImportException e) {
      queue.put(new SyncItem.FileIssue(task.file(), e.getMessage(), e.skipped()));
      return;
    } catch (RuntimeException | StackOverflowError e) {
      queue.put(
          new SyncItem.FileIssue(
              task.file(), "could not be read: " + ImportException.plainReason(e), false));
      return;
    }
    List<CorpusRecord> records = result.records();
    queue.put(new SyncItem.FileStarted(task.file(), records.size()));
    int duplicates = 0;
    String duplicateExample = null;
    var warnings = new ArrayList<>(result.warnings());
    var truncated = new ArrayList<String>();
    int owned = 0;
    int collisions = 0;
    var keys = new ArrayList<String>();
    boolean recordFailed = false;
    for (CorpusRecord record : records) {
      record = task.given() != null ? record : withOrigin(record, task.file());
      String owner = otherOwner(record.key(), task.collectionName());
      if (owner != null) {
        owned++;
        if (owned <= 3) {
          warnings.add(
              "record "
                  + record.key()
                  + " is already indexed from collection '"
                  + owner
                  + "'; kept that one (a key belongs to one collection)");
        }
        continue;
      }
      Path first = produced.putIfAbsent(record.key(), task.file());
      if (first != null && undecodable(first, task.file())) {
        warnings.add(collision(record.key(), first, task.file()));
        collisions++;
        continue;
      }
      if (first != null) {
        duplicates++;
        if (duplicateExample == null) {
          duplicateExample = record.key() + " (first in " + first + ")";
        }
        continue;
      }
      SyncItem item = prepare(task.file(), record, task.collectionName(), truncated);
      if (item instanceof SyncItem.FileIssue) {
        recordFailed = true;
      } else {
        keys.add(record.key());
      }
      queue.put(item);
    }
    if (owned > 3) {
      warnings.add((owned - 3) + " more record(s) already indexed from other collections");
    }
    if (duplicates > 0) {
      warnings.add(
          duplicates
              + " record(s) with a key already imported this run, e.g. "
              + duplicateExample
              + "; kept the first");
    }
    // A file whose outcome depends on other files (a key they hold) is read again every time.
    boolean alone = owned == 0 && duplicates == 0 && collisions == 0 && !recordFailed;
    var remember =
        alone && stamp != null
            ? new FileStates.FileState(
                task.collectionName(),
                stamp,
                List.copyOf(keys),
                List.copyOf(warnings),
                List.copyOf(truncated))
            : null;
    queue.put(
        new SyncItem.FileRead(
            task.file(),
            records.size() - duplicates - owned - collisions,
            warnings,
            truncated,
            remember,
            task.given() != null));
  }

  /**
   * Reports the file's records unchanged without opening it when its stamp is the stored one, its
   * collection's files were last read by this build with the same file names, and each of its
   * records is still in the index as that file's, chunked as this sync would chunk it; false (and
   * nothing reported) otherwise.
   */
  private boolean unchangedByStamp(FileTask task, String stamp) throws InterruptedException {
    String path = task.file().toString();
    FileStates.FileState known = fileStates.get(path);
    if (known == null
        || stamp.isEmpty()
        || !stamp.equals(known.stamp())
        || !trusted.contains(task.collectionName())
        || !task.collectionName().equals(known.collection())) {
      return false;
    }
    for (String key : known.keys()) {
      IndexReads.RecordState state = states.get(key);
      if (state == null
          || produced.containsKey(key)
          || !path.equals(state.origin())
          || !task.collectionName().equals(state.collection())
          || !(cap.signature().equals(state.chunking())
              || cap.cutAt(state.chunking()).isPresent())) {
        return false;
      }
    }
    queue.put(new SyncItem.FileStarted(task.file(), known.keys().size()));
    for (String key : known.keys()) {
      produced.put(key, task.file());
      queue.put(new SyncItem.Unchanged(key));
    }
    queue.put(
        new SyncItem.FileRead(
            task.file(), known.keys().size(), known.warnings(), known.truncated(), known, true));
    return true;
  }

  /**
   * Whether two different files have names with bytes that are not UTF-8: Java reads each such byte
   * as U+FFFD, so names that differ only there give one key.
   */
  private static boolean undecodable(Path first, Path file) {
    return !first.equals(file)
        && (first.toString().indexOf('\uFFFD') >= 0 || file.toString().indexOf('\uFFFD') >= 0);
  }

  /** The warning for {@code file} whose record took the key {@code first} already has. */
  private static String collision(String key, Path first, Path file) {
    return "not indexed: its key "
        + key
        + " is also the key of "
        + DisplayPath.of(first)
        + " (indexed) and of this file, "
        + DisplayPath.of(file)
        + ": their names differ only in bytes that are not UTF-8 (bytes beyond ASCII shown as %XX),"
        + " which a key cannot keep apart. Rename them to UTF-8 names";
  }

  /** Why a file is too large to import, or null. */
  private static String sizeIssue(FileTask task) {
    long size;
    try {
      size = Files.size(task.file());
    } catch (IOException e) {
      return null; // reading reports it
    }
    long cap = task.collection().maxFileBytes();
    if (size <= cap) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "%s is %.1f MB, over the per-file cap of %.1f MB of collection '%s' (max_file_mb in"
            + " brain.yaml)",
        task.file(),
        size / 1048576.0,
        cap / 1048576.0,
        task.collection().name());
  }

  /**
   * The collection that already holds this key when it is not {@code collection} and its file is
   * still there (URL- and id-named keys such as {@code src:}, {@code bm:}, {@code doc:} can come
   * from two collections; the first keeps them), else null.
   */
  private String otherOwner(String key, String collection) {
    IndexReads.RecordState state = states.get(key);
    if (state == null || state.collection() == null || state.collection().equals(collection)) {
      return null;
    }
    boolean ownerFileExists = state.origin() != null && Files.exists(Path.of(state.origin()));
    return ownerFileExists ? state.collection() : null;
  }

  /**
   * The record ready to write, or {@link SyncItem.Unchanged}; a record the chunk cap cuts (now, or
   * when it was written) adds the reason to {@code truncated}.
   */
  private SyncItem prepare(
      Path file, CorpusRecord record, String collection, List<String> truncated)
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
   * Vectors of embedding inputs the index already holds, else the embedding cache; {@code null} for
   * the rest.
   */
  private float[][] storedVectors(List<String> embedHashes) throws IOException {
    var vectors = new float[embedHashes.size()][];
    IndexSearcher searcher = searchers.acquire();
    try {
      for (int i = 0; i < embedHashes.size(); i++) {
        vectors[i] = VectorLookup.find(searcher, embedHashes.get(i), dimension);
        if (vectors[i] == null) {
          vectors[i] = cache.find(embedHashes.get(i));
        }
      }
    } finally {
      searchers.release(searcher);
    }
    return vectors;
  }

  /** Records without an origin get their file, so deleting the file deletes them. */
  private static CorpusRecord withOrigin(CorpusRecord r, Path file) {
    if (r.origin() != null) {
      return r;
    }
    String origin = file.toAbsolutePath().normalize().toString();
    return r.withOrigin(origin);
  }
}
