package dev.brain.server.cli;

import dev.brain.index.SyncListener;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Shows sync progress on stderr. On a terminal: a bar over records whose total grows as each file
 * is opened (one JSONL corpus can hold thousands of records), with files read and chunks embedded
 * alongside. Otherwise (a log, a pipe, CI) a plain line at most every {@link #LINE_INTERVAL}, so a
 * long embedding run is not silent there either.
 */
final class SyncProgress implements SyncListener, AutoCloseable {
  /** How often the line mode reports. */
  static final Duration LINE_INTERVAL = Duration.ofSeconds(15);

  private final boolean bars;
  private final PrintWriter lines;
  private final long lineIntervalNanos;
  private final long start = System.nanoTime();
  private long lastLine = start;
  private ProgressBar bar;
  private int files;
  private int filesDone;
  private long recordsPlanned;
  private long recordsDone;
  private long embedded;
  private long toEmbed = -1;
  private boolean searchable;
  private int toSummarize = -1;
  private int summarized;
  private int problems;

  private SyncProgress(boolean bars, PrintWriter lines, Duration lineInterval) {
    this.bars = bars;
    this.lines = lines;
    this.lineIntervalNanos = lineInterval.toNanos();
  }

  /**
   * The progress a command shows: none when switched off, a bar when stderr is a terminal, plain
   * lines on {@code err} otherwise.
   */
  static SyncProgress forCommand(boolean enabled, PrintWriter err) {
    if (!enabled) {
      return new SyncProgress(false, null, LINE_INTERVAL);
    }
    return Terminals.stderrIsTerminal()
        ? new SyncProgress(true, null, LINE_INTERVAL)
        : new SyncProgress(false, err, LINE_INTERVAL);
  }

  /** Plain progress lines on {@code out}, at most one per {@code interval}. */
  static SyncProgress lines(PrintWriter out, Duration interval) {
    return new SyncProgress(false, out, interval);
  }

  @Override
  public void filesPlanned(int count) {
    files = count;
    if (!bars) {
      return;
    }
    bar =
        new ProgressBarBuilder()
            .setTaskName("indexing")
            .setInitialMax(0)
            .setStyle(ProgressBarStyle.ASCII)
            .setUnit(" records", 1)
            .setUpdateIntervalMillis(250)
            .showSpeed()
            .build();
  }

  @Override
  public void fileStarted(Path file, int records) {
    recordsPlanned += records;
    if (bar != null) {
      bar.maxHint(recordsPlanned);
    }
  }

  @Override
  public void fileDone(Path file, int count) {
    filesDone++;
    message();
  }

  @Override
  public void fileFailed(Path file, String reason, boolean skipped) {
    filesDone++;
    problems++;
    message();
  }

  @Override
  public void recordDone(String key, Change change) {
    if (change == Change.DELETED) {
      return;
    }
    recordsDone++;
    if (bar != null) {
      bar.step();
    }
    line();
  }

  @Override
  public void lexicalCommitted(int recordsWritten) {
    searchable = true;
    message();
  }

  @Override
  public void embeddingPlanned(long chunks) {
    toEmbed = chunks;
    message();
  }

  @Override
  public void chunksEmbedded(int count) {
    embedded += count;
    message();
  }

  @Override
  public void summariesPlanned(int records) {
    toSummarize = records;
    message();
  }

  @Override
  public void recordSummarized(String key, boolean made) {
    summarized++;
    message();
  }

  private void message() {
    if (bar != null) {
      bar.setExtraMessage(extra());
    }
    line();
  }

  private String extra() {
    var extra =
        "files "
            + filesDone
            + "/"
            + files
            + ", "
            + embedded
            + (toEmbed >= 0 ? "/" + toEmbed : "")
            + " chunks embedded"
            + (searchable ? ", text searchable" : "")
            + (toSummarize >= 0 ? ", " + summarized + "/" + toSummarize + " model summaries" : "");
    return problems == 0 ? extra : extra + ", " + problems + " not imported";
  }

  /** In line mode, one line when the interval has passed since the last one. */
  private void line() {
    long now = System.nanoTime();
    if (lines == null || now - lastLine < lineIntervalNanos) {
      return;
    }
    lastLine = now;
    double seconds = Math.max(1e-9, (now - start) / 1e9);
    lines.printf(
        Locale.ROOT,
        "indexing: %,d/%,d records, %s (%.1f chunks/s, %ds)%n",
        recordsDone,
        recordsPlanned,
        extra(),
        embedded / seconds,
        Math.round(seconds));
    lines.flush();
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.close();
      bar = null;
    }
  }
}
