package dev.brain.index;

import java.nio.file.Path;

/**
 * Progress of a {@link BrainIndex#sync sync}, for progress bars and logs. Every callback is made on
 * the thread that called {@code sync}, in order; implementations must return quickly. All methods
 * do nothing by default.
 */
public interface SyncListener {

  /** A listener that ignores everything. */
  SyncListener NONE = new SyncListener() {};

  /** What happened to one record. */
  enum Change {
    /** A new record was indexed. */
    ADDED,
    /** A known record had changed and was replaced with its chunks. */
    UPDATED,
    /** A known record was unchanged and skipped (nothing chunked or embedded). */
    UNCHANGED,
    /** A record whose file or entry is gone was deleted with its chunks. */
    DELETED
  }

  /** The roots were walked: {@code files} files will be read. Called once, first. */
  default void filesPlanned(int files) {}

  /**
   * One file has been read into {@code records} records, which are processed next. A progress bar
   * over records can grow its total here (a single JSONL file may hold thousands).
   */
  default void fileStarted(Path file, int records) {}

  /**
   * One file has been read and its records handed on (they may still wait for the next embedding
   * batch).
   *
   * @param records how many records it produced
   */
  default void fileDone(Path file, int records) {}

  /**
   * One file could not be imported; the sync goes on.
   *
   * @param skipped true for an unsupported file, false for a malformed one
   */
  default void fileFailed(Path file, String reason, boolean skipped) {}

  /** The importer skipped a part of a file (a bad JSONL line, ...); the rest was imported. */
  default void fileWarning(Path file, String warning) {}

  /** One record was written, skipped or deleted. */
  default void recordDone(String key, Change change) {}

  /**
   * Every record of the sync and its chunks are committed and searchable by BM25; embedding the
   * chunks that lack a vector follows.
   *
   * @param recordsWritten records added or updated by this sync
   */
  default void lexicalCommitted(int recordsWritten) {}

  /**
   * The embedding pass starts: {@code chunks} chunks in the index lack a vector (some may find one
   * by their input hash and need no embedding).
   */
  default void embeddingPlanned(long chunks) {}

  /** The embedder returned vectors for {@code count} more chunks. */
  default void chunksEmbedded(int count) {}

  /**
   * The summary model ({@link IndexConfig#summaryModel()}) is about to be asked for the summaries
   * of {@code records} long records, after their text was searchable and embedded.
   */
  default void summariesPlanned(int records) {}

  /**
   * The summary model answered for one record ({@code made}) or failed (the record keeps the
   * summary it had; the reason is kept for {@code brain status}).
   */
  default void recordSummarized(String key, boolean made) {}

  /**
   * The work so far was committed: a crash from now on keeps it. Called every {@link
   * IndexConfig#commitInterval()} and once at the end.
   *
   * @param recordsWritten records added or updated by this sync so far
   */
  default void committed(int recordsWritten) {}
}
