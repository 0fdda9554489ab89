package dev.brain.server.cli;

import dev.brain.index.AttachmentCounts;
import dev.brain.index.IndexMetadata;
import dev.brain.index.SyncReport;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Locale;

/** The human summary printed after {@code brain index}. */
final class SyncSummary {
  /** Warnings printed before the rest are only counted. */
  static final int MAX_WARNINGS_SHOWN = 20;

  /** Attachment types named on the attachments line; the others are summed up after them. */
  static final int MAX_ATTACHMENT_TYPES_SHOWN = 4;

  private SyncSummary() {}

  static void print(SyncReport r, IndexMetadata meta, PrintWriter out) {
    double seconds = r.elapsed().toMillis() / 1000.0;
    out.printf(
        Locale.ROOT,
        "%d files: %d added, %d updated, %d unchanged, %d deleted, %d skipped, %d failed,"
            + " %d warnings%n",
        r.files(),
        r.added(),
        r.updated(),
        r.unchanged(),
        r.deleted(),
        r.skipped().size(),
        r.failed().size(),
        r.warnings().size());
    if (r.attachments().total() > 0) {
      out.println(attachments(r.attachments()));
    }
    if (r.chunksWritten() == 0) {
      // Nothing to rate: say what an unchanged sync did read (none of the files, usually).
      out.printf(
          Locale.ROOT,
          "no chunk written; %d of %d files read, in %.2f s%n",
          r.filesRead(),
          r.files(),
          seconds);
    } else {
      printWritten(r, seconds, out);
    }
    if (r.chunksEmbedded() > 0) {
      double embedSeconds = r.embedTime().toMillis() / 1000.0;
      out.printf(
          Locale.ROOT,
          "embedder: %.1f s for %d chunks (%.1f chunks/s); pipeline keeps %.0f%% of it%n",
          embedSeconds,
          r.chunksEmbedded(),
          r.embedderChunksPerSecond(),
          seconds <= 0 ? 0 : 100.0 * embedSeconds / seconds);
    }
    if (r.modelSummaries() > 0 || r.modelSummaryFailures() > 0) {
      out.printf(
          Locale.ROOT,
          "model summaries: %d made, %d failed%s%n",
          r.modelSummaries(),
          r.modelSummaryFailures(),
          r.modelSummaryFailures() > 0
              ? " (they keep their extractive summary; `brain status` says why)"
              : "");
    }
    out.printf(
        Locale.ROOT,
        "model %s (%d-d, %s)%n",
        TerminalText.line(meta.modelId()),
        meta.dimension(),
        meta.vectorFormat());
    for (var issue : r.skipped()) {
      out.println("  skipped " + issue(issue.file(), issue.reason()));
    }
    for (var issue : r.failed()) {
      out.println("  FAILED  " + issue(issue.file(), issue.reason()));
    }
    for (var issue : r.truncated()) {
      out.println("  truncated " + issue(issue.file(), issue.reason()));
    }
    // Parts of files that were left out (bad JSONL lines, ...): shown, not only counted in --json.
    var warnings = r.warnings();
    for (int i = 0; i < Math.min(MAX_WARNINGS_SHOWN, warnings.size()); i++) {
      out.println("  warning " + issue(warnings.get(i).file(), warnings.get(i).reason()));
    }
    if (warnings.size() > MAX_WARNINGS_SHOWN) {
      out.println(
          "  ... and "
              + (warnings.size() - MAX_WARNINGS_SHOWN)
              + " more warnings (--json lists all)");
    }
  }

  /**
   * The attachments a sync counted, on one line, the most frequent types first: {@code 312
   * attachments skipped: 290 .png, 22 .mp4}; beyond {@link #MAX_ATTACHMENT_TYPES_SHOWN} types the
   * rest are summed ({@code ..., 9 more of 3 other types}).
   */
  static String attachments(AttachmentCounts a) {
    var parts = new ArrayList<String>();
    // One type over the limit is named rather than summed as "1 more of 1 other type".
    int named =
        a.byExtension().size() <= MAX_ATTACHMENT_TYPES_SHOWN + 1
            ? a.byExtension().size()
            : MAX_ATTACHMENT_TYPES_SHOWN;
    int shown = 0;
    int rest = 0;
    for (var e : a.byExtension().entrySet()) {
      if (shown < named) {
        parts.add(e.getValue() + " ." + TerminalText.line(e.getKey()));
        shown++;
      } else {
        rest += e.getValue();
      }
    }
    int otherTypes = a.byExtension().size() - shown;
    if (otherTypes > 0) {
      parts.add(rest + " more of " + otherTypes + " other type" + (otherTypes == 1 ? "" : "s"));
    }
    return a.total()
        + (a.total() == 1 ? " attachment" : " attachments")
        + " skipped: "
        + String.join(", ", parts);
  }

  /** A file and what happened to it, one line: a file name or reason cannot drive the terminal. */
  private static String issue(java.nio.file.Path file, String reason) {
    return TerminalText.line(String.valueOf(file)) + ": " + TerminalText.line(reason);
  }

  private static void printWritten(SyncReport r, double seconds, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "%d chunks written (%d embedded, %d reused%s) in %.1f s: %.1f chunks/s%n",
        r.chunksWritten(),
        r.chunksEmbedded(),
        r.chunksReused(),
        r.chunksFromCache() > 0
            ? ", " + r.chunksFromCache() + " of them from the embedding cache"
            : "",
        seconds,
        r.chunksPerSecond());
  }
}
