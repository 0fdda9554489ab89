package dev.brain.index.store;

import dev.brain.chunking.Chunk;
import dev.brain.index.AttachmentCounts;
import dev.brain.index.CollectionStatus;
import dev.brain.index.CorpusRecord;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A store outside the embedded index that brain's one sync pipeline writes to ({@link
 * dev.brain.index.StoreSync}): records with their chunks, deletes, vectors, commits. It keeps no
 * file states, so every file is read each sync; unchanged records are skipped by content hash.
 */
public interface RecordStore {

  /** What the store holds of a record, to compare with what a sync read. */
  record State(String contentHash, String chunking, String origin, String collection) {}

  /**
   * A record with its chunks, their embedding-input hashes and vectors ({@code null} where none is
   * known yet).
   */
  record Block(
      CorpusRecord record,
      String contentHash,
      String collection,
      String chunking,
      List<Chunk> chunks,
      List<String> embedHashes,
      float[][] vectors) {}

  /** A collection's complete sync, its issues capped at {@link CollectionStatus#MAX_ISSUES}. */
  record CollectionOutcome(
      String name,
      Instant at,
      int files,
      AttachmentCounts attachments,
      List<CollectionStatus.Issue> skipped,
      List<CollectionStatus.Issue> failed,
      List<CollectionStatus.Issue> truncated,
      List<CollectionStatus.Issue> warnings,
      int moreIssues) {}

  /** What the last commit holds of each record, by key. */
  Map<String, State> recordStates() throws IOException;

  /** Replaces the record and its chunks; readers never see the record without its chunks. */
  void write(Block block) throws IOException;

  /**
   * Writes again a block read by {@link #load} whose chunks have more vectors now (the embedding
   * pass): the record and its chunks are otherwise unchanged.
   */
  void rewrite(Block block) throws IOException;

  /** Deletes the record of {@code key} with its chunks. */
  void delete(String key) throws IOException;

  /** The vectors the store holds for these embedding inputs, by position; null where none. */
  float[][] storedVectors(List<String> embedHashes) throws IOException;

  /** Records with chunks lacking a vector, in the order to embed them, with how many lack one. */
  Map<String, Integer> missingChunksByRecord() throws IOException;

  /** The record {@code key} with its chunks and the vectors the store holds, or null. */
  Block load(String key) throws IOException;

  /** Makes what was written visible to the store's reads. */
  void refresh() throws IOException;

  /** Whether anything was written since the last commit. */
  boolean hasUncommittedChanges();

  /**
   * Makes what was written searchable and durable; the final commit of a sync records each synced
   * collection's outcome.
   */
  void commit(boolean complete, List<CollectionOutcome> synced) throws IOException;
}
