package dev.brain.index;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Where a sync keeps what it does: the records and chunks it prepared, the records it deletes as
 * stale, the stored states of the files it read whole, and its commits. The sync pipeline ({@link
 * SyncRun}) decides what changes; the store only holds it. The embedded Lucene index is one ({@link
 * LuceneSyncStore}).
 */
interface SyncStore {

  /** What the store's last commit holds of each record, by key. */
  Map<String, IndexReads.RecordState> recordStates() throws IOException;

  /**
   * The remembered state of each file last read whole, by path; empty for a store that keeps none
   * (then every file is read).
   */
  Map<String, FileStates.FileState> fileStates() throws IOException;

  /**
   * Replaces the record and all its chunks so that no reader sees the record without its chunks;
   * chunks without a vector are left for the embedding pass.
   */
  void write(SyncItem.Prepared record) throws IOException;

  /** Deletes the record of {@code key} and its chunks. */
  void delete(String key) throws IOException;

  /** Remembers the state of the file at {@code path}, read whole. */
  void rememberFile(String path, FileStates.FileState state) throws IOException;

  /** Forgets the state of the file at {@code path}: it is read again next time. */
  void forgetFile(String path) throws IOException;

  /**
   * The vectors the store holds for these embedding inputs, by position; {@code null} where it
   * holds none.
   */
  float[][] storedVectors(List<String> embedHashes) throws IOException;

  /**
   * Keys of the records with chunks that lack a vector, in the order the embedding pass batches
   * them, with how many lack one.
   */
  Map<String, Integer> missingChunksByRecord() throws IOException;

  /**
   * The record {@code key} as the store holds it, with its chunks and their vectors, or {@code
   * null} if there is none.
   *
   * @param elsewhere the vector of an embedding-input hash the store's reads do not see, or {@code
   *     null}
   */
  StoredBlock load(String key, Function<String, float[]> elsewhere) throws IOException;

  /** Replaces a record read by {@link #load} with its chunks, with the vectors it has now. */
  void rewrite(StoredBlock block) throws IOException;

  /** Makes what was written visible to the store's reads (not necessarily durable). */
  void refresh() throws IOException;

  /** Whether anything was written since the last commit. */
  boolean hasUncommittedChanges();

  /**
   * Makes what was written searchable and durable.
   *
   * @param complete true for the final commit of a sync, which records the sync time
   * @param synced the outcome per collection, on the final commit (empty otherwise)
   */
  void commit(boolean complete, List<CollectionSync> synced) throws IOException;
}
