package dev.brain.server.cli;

import dev.brain.index.SyncListener;
import java.nio.file.Path;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Draws sync progress on stderr: a bar over records whose total grows as each file is opened (one
 * JSONL corpus can hold thousands of records), with files read and chunks embedded alongside.
 */
final class SyncProgress implements SyncListener, AutoCloseable {
  private final boolean enabled;
  private ProgressBar bar;
  private int files;
  private int filesDone;
  private long recordsPlanned;
  private long embedded;
  private int problems;

  SyncProgress(boolean enabled) {
    this.enabled = enabled;
  }

  @Override
  public void filesPlanned(int count) {
    files = count;
    if (!enabled) {
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
    if (bar != null && change != Change.DELETED) {
      bar.step();
    }
  }

  @Override
  public void chunksEmbedded(int count) {
    embedded += count;
    message();
  }

  private void message() {
    if (bar == null) {
      return;
    }
    var extra = "files " + filesDone + "/" + files + ", " + embedded + " chunks embedded";
    bar.setExtraMessage(problems == 0 ? extra : extra + ", " + problems + " not imported");
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.close();
      bar = null;
    }
  }
}
