package dev.brain.index;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * What the index holds of one collection and how its last complete sync went, for {@code brain
 * status}.
 *
 * @param name the collection name
 * @param records records of the collection
 * @param chunks their chunks
 * @param embeddedChunks chunks that have their vector ({@link #vectorCoverage()})
 * @param files files the last complete sync of the collection looked at (including skipped and
 *     failed ones, not attachments); 0 before one finished
 * @param attachments attachments the last complete sync counted and did not read, per extension
 * @param lastSyncAt when the last complete sync of the collection that changed something (the index
 *     or the collection's outcome) finished, or {@code null}
 * @param skipped files the last sync skipped (unknown types, too large), with reasons; at most
 *     {@link #MAX_ISSUES}
 * @param failed files the last sync could not read, with reasons; at most {@link #MAX_ISSUES}
 * @param truncated records the chunk cap cut, by file, with reasons
 * @param warnings parts of files the last sync left out (a bad JSONL line, a key another file
 *     took), with reasons
 * @param moreIssues skipped, failed, truncated and warned-about files beyond those listed
 */
public record CollectionStatus(
    String name,
    long records,
    long chunks,
    long embeddedChunks,
    int files,
    AttachmentCounts attachments,
    Instant lastSyncAt,
    List<Issue> skipped,
    List<Issue> failed,
    List<Issue> truncated,
    List<Issue> warnings,
    int moreIssues) {

  /** How many issues (skipped, failed, truncated, warnings) are kept per collection. */
  public static final int MAX_ISSUES = 50;

  /**
   * A file a sync did not import.
   *
   * @param file absolute path
   * @param reason why, in words a user can act on
   */
  public record Issue(String file, String reason) {}

  public CollectionStatus {
    skipped = List.copyOf(skipped);
    failed = List.copyOf(failed);
    truncated = List.copyOf(truncated);
    warnings = List.copyOf(warnings);
  }

  /** Share of the collection's chunks with a vector, 0 to 1 (1 without chunks). */
  @JsonProperty("vector_coverage")
  public double vectorCoverage() {
    return chunks == 0 ? 1.0 : (double) embeddedChunks / chunks;
  }
}
