package dev.brain.index;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The outcome of one {@link BrainIndex#sync sync}.
 *
 * @param files files the sync looked at (including skipped and failed ones); attachments are not
 *     read, only counted
 * @param filesRead the files whose content this sync read; the others were unchanged by their
 *     stamps ({@link FileStates}) or skipped unread (records handed over directly count none)
 * @param added new records indexed
 * @param updated changed records replaced
 * @param unchanged records skipped because their content hash (and chunking) was unchanged
 * @param deleted records removed because their file or entry disappeared
 * @param attachments attachments (images, audio, video, archives, ...) found and not read, counted
 *     per extension rather than listed
 * @param skipped files not read (unknown types, binary content, too large, links), with reasons
 * @param failed malformed files, with reasons; their earlier records (if any) are kept
 * @param truncated records the chunk cap ({@link IndexConfig#maxChunksPerRecord()}) cut: indexed
 *     with their first chunks only, one per record, with the reason
 * @param warnings parts of imported files that were skipped (a bad JSONL line, a bookmark without a
 *     URL), one per part
 * @param chunksWritten chunk documents written for added and updated records
 * @param chunksEmbedded chunks sent to the embedder
 * @param chunksReused chunks written with a vector that was not embedded this run: found in the
 *     index or the embedding cache by the hash of the embedding input, or embedded once for two
 *     chunks with the same input
 * @param chunksFromCache the part of {@code chunksReused} found in the embedding cache (a chunk
 *     embedded before, in no live chunk of the index now: removed and added again, rebuilt)
 * @param elapsed wall time of the whole sync
 * @param embedTime time spent inside the embedder
 * @param modelSummaries long records the summary model ({@link IndexConfig#summaryModel()})
 *     summarized this sync
 * @param modelSummaryFailures long records whose model summary failed this sync (they keep the
 *     summary they had; {@link IndexStatus} lists them with their reasons)
 */
public record SyncReport(
    int files,
    int filesRead,
    int added,
    int updated,
    int unchanged,
    int deleted,
    AttachmentCounts attachments,
    List<FileIssue> skipped,
    List<FileIssue> failed,
    List<FileIssue> truncated,
    List<FileIssue> warnings,
    long chunksWritten,
    long chunksEmbedded,
    long chunksReused,
    long chunksFromCache,
    Duration elapsed,
    Duration embedTime,
    int modelSummaries,
    int modelSummaryFailures) {

  /**
   * A file that was not imported.
   *
   * @param file the file
   * @param reason why, in words a user can act on
   */
  public record FileIssue(Path file, String reason) {}

  public SyncReport {
    skipped = List.copyOf(skipped);
    failed = List.copyOf(failed);
    truncated = List.copyOf(truncated);
    warnings = List.copyOf(warnings);
  }

  /** Chunks written per second of wall time (0 for an instant sync). */
  public double chunksPerSecond() {
    return perSecond(chunksWritten, elapsed);
  }

  /** Chunks embedded per second spent inside the embedder: the raw embedder speed of this run. */
  public double embedderChunksPerSecond() {
    return perSecond(chunksEmbedded, embedTime);
  }

  /** Records added plus updated: the records whose chunks were (re)written. */
  public int written() {
    return added + updated;
  }

  private static double perSecond(long count, Duration time) {
    double seconds = time.toNanos() / 1e9;
    return seconds <= 0 ? 0 : count / seconds;
  }
}
