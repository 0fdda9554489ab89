package dev.brain.index;

import java.time.Duration;

/** What one sync did, counted as it goes and turned into its {@link SyncReport} at the end. */
final class SyncCounts {

  int added;
  int updated;
  int unchanged;
  int deleted;
  long chunksWritten;
  long chunksEmbedded;
  long chunksReused;
  long embedNanos;

  /** Records added or updated so far. */
  int written() {
    return added + updated;
  }

  void addEmbedding(EmbedPass.Outcome embedding) {
    chunksEmbedded += embedding.embedded();
    chunksReused += embedding.reused();
    embedNanos += embedding.embedNanos();
  }

  SyncReport report(
      int files,
      int filesRead,
      AttachmentCounts attachments,
      SyncIssues found,
      long cacheHits,
      long startNanos,
      SummaryPass.Outcome summaries) {
    return new SyncReport(
        files,
        filesRead,
        added,
        updated,
        unchanged,
        deleted,
        attachments,
        found.skipped(),
        found.failed(),
        found.truncated(),
        found.warnings(),
        chunksWritten,
        chunksEmbedded,
        chunksReused,
        cacheHits,
        Duration.ofNanos(System.nanoTime() - startNanos),
        Duration.ofNanos(embedNanos),
        summaries.made(),
        summaries.failed());
  }
}
