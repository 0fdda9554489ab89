package dev.brain.index;

import dev.brain.chunking.Chunk;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** What the reading thread hands to the writing thread during a sync, in file order. */
sealed interface SyncItem {

  /** A file was read into {@code records} records, which follow this item in the queue. */
  record FileStarted(Path file, int records) implements SyncItem {}

  /**
   * A file was read (or found unchanged by its stamp); its records precede this item in the queue.
   *
   * @param warnings parts of the file the importer skipped (a bad JSONL line, ...)
   * @param truncated its records the chunk cap cut, each with the reason
   * @param remember the file's state to store for the next sync, or {@code null} to forget any: its
   *     outcome depended on other files (a key another file or collection holds) or a record failed
   * @param unread the file was not opened: its stored state stands as it is
   */
  record FileRead(
      Path file,
      int records,
      List<String> warnings,
      List<String> truncated,
      FileStates.FileState remember,
      boolean unread)
      implements SyncItem {}

  /**
   * A file (or one of its records) could not be imported; the file's earlier records are kept.
   *
   * @param skipped unsupported rather than malformed
   */
  record FileIssue(Path file, String reason, boolean skipped) implements SyncItem {}

  /** A record whose content and chunking are unchanged. */
  record Unchanged(String key) implements SyncItem {}

  /**
   * A new or changed record, chunked, with the chunking signature to store ({@link ChunkCap}), each
   * chunk's embedding-input hash ({@link EmbeddingInput#hash}, hashed once here for the lookup, the
   * batch and the document) and the vectors found in the index by it ({@code null} where the chunk
   * still has to be embedded). {@code record} carries the summary its summary chunks index (its
   * own, the one made from its text, or the model's it had before a re-chunking; where it came from
   * is {@code summary}); {@code contentHash} is the hash of the record as imported, so a re-sync
   * finds it unchanged.
   */
  record Prepared(
      CorpusRecord record,
      String contentHash,
      SummaryState summary,
      String collection,
      String chunking,
      boolean isNew,
      List<Chunk> chunks,
      List<String> embedHashes,
      float[][] vectors)
      implements SyncItem {
    int missing() {
      int n = 0;
      for (float[] v : vectors) {
        if (v == null) {
          n++;
        }
      }
      return n;
    }
  }

  /** Every file was read; {@code keys} are the record keys produced this run. */
  record End(Set<String> keys) implements SyncItem {}

  /** The reading thread failed; the sync stops with this error. */
  record Failure(Throwable error) implements SyncItem {}
}
