package dev.brain.index;

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
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.function.Supplier;
import org.apache.lucene.search.SearcherManager;

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
  private final RecordChunking chunking;
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
      SyncStore store,
      BlockingQueue<SyncItem> queue) {
    this.files = files;
    this.reader = reader;
    this.states = states;
    this.fileStates = fileStates;
    this.trusted = trusted;
    this.cap = cap;
    this.chunking =
        new RecordChunking(
            states, cap, summaries, modelSummaries, chunker, searchers, cache, store);
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
    String stamp = null;
    if (task.given() == null) {
      stamp = FileStates.stamp(task.file(), Instant.now()); // before reading: a change shows later
      if (stamp != null && unchangedByStamp(task, stamp)) {
        return;
      }
    }
    ImportResult result = importFile(task);
    if (result == null) {
      return;
    }
    List<CorpusRecord> records = result.records();
    queue.put(new SyncItem.FileStarted(task.file(), records.size()));
    var tally = new FileTally(result.warnings());
    for (CorpusRecord record : records) {
      readRecord(task, record, tally);
    }
    queue.put(tally.fileRead(task, stamp, records.size()));
  }

  /** The file's records, or null when reading it failed (the issue is reported). */
  private ImportResult importFile(FileTask task) throws InterruptedException {
    CollectionRoot collection = task.collection();
    try {
      return task.given() != null
          ? new ImportResult(task.given(), List.of())
          : reader.read(task.file(), collection.root(), collection.name());
    } catch (ImportException e) {
      queue.put(new SyncItem.FileIssue(task.file(), e.getMessage(), e.skipped()));
      return null;
    } catch (RuntimeException | StackOverflowError e) {
      queue.put(
          new SyncItem.FileIssue(
              task.file(), "could not be read: " + ImportException.plainReason(e), false));
      return null;
    }
  }

  /**
   * Hands on one record of the file, unless another collection owns its key, another file of this
   * run took it, or an undecodable name collides with it (each counted in the tally).
   */
  private void readRecord(FileTask task, CorpusRecord record, FileTally tally)
      throws InterruptedException, IOException {
    record = task.given() != null ? record : withOrigin(record, task.file());
    String owner = otherOwner(record.key(), task.collectionName());
    if (owner != null) {
      tally.owned(record.key(), owner);
      return;
    }
    Path first = produced.putIfAbsent(record.key(), task.file());
    if (first != null && undecodable(first, task.file())) {
      tally.warnings.add(collision(record.key(), first, task.file()));
      tally.collisions++;
      return;
    }
    if (first != null) {
      tally.duplicates++;
      if (tally.duplicateExample == null) {
        tally.duplicateExample = record.key() + " (first in " + first + ")";
      }
      return;
    }
    SyncItem item = chunking.prepare(task.file(), record, task.collectionName(), tally.truncated);
    if (item instanceof SyncItem.FileIssue) {
      tally.recordFailed = true;
    } else {
      tally.keys.add(record.key());
    }
    queue.put(item);
  }

  /** What reading one file's records came to: its warnings, and the records kept or left out. */
  private static final class FileTally {
    final List<String> warnings;
    final List<String> truncated = new ArrayList<>();
    final List<String> keys = new ArrayList<>();
    int owned;
    int duplicates;
    String duplicateExample;
    int collisions;
    boolean recordFailed;

    FileTally(List<String> importWarnings) {
      warnings = new ArrayList<>(importWarnings);
    }

    void owned(String key, String owner) {
      owned++;
      if (owned <= 3) {
        warnings.add(
            "record "
                + key
                + " is already indexed from collection '"
                + owner
                + "'; kept that one (a key belongs to one collection)");
      }
    }

    /** The file's outcome, remembered under {@code stamp} when it depends on no other file. */
    SyncItem.FileRead fileRead(FileTask task, String stamp, int records) {
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
      return new SyncItem.FileRead(
          task.file(),
          records - duplicates - owned - collisions,
          warnings,
          truncated,
          remember,
          task.given() != null);
    }
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

  /** Records without an origin get their file, so deleting the file deletes them. */
  private static CorpusRecord withOrigin(CorpusRecord r, Path file) {
    if (r.origin() != null) {
      return r;
    }
    String origin = file.toAbsolutePath().normalize().toString();
    return r.withOrigin(origin);
  }
}
