package dev.brain.server.cli;

import dev.brain.index.SyncListener;
import java.nio.file.Path;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Draws sync progress on stderr with a progress bar over files; the extra message counts records
 * and embedded chunks, which matters when one file (a JSONL corpus) holds thousands of records.
 */
final class SyncProgress implements SyncListener, AutoCloseable {
  private final boolean enabled;
  private ProgressBar bar;
  private long records;
  private long embedded;
  private int problems;

  SyncProgress(boolean enabled) {
    this.enabled = enabled;
  }

  @Override
  public void filesPlanned(int files) {
    if (!enabled) {
      return;
    }
    bar =
        new ProgressBarBuilder()
            .setTaskName("indexing")
            .setInitialMax(files)
            .setStyle(ProgressBarStyle.ASCII)
            .setUnit(" files", 1)
            .setUpdateIntervalMillis(250)
            .showSpeed()
            .build();
  }

  @Override
  public void fileDone(Path file, int count) {
    if (bar != null) {
      bar.step();
      message();
    }
  }

  @Override
  public void fileFailed(Path file, String reason, boolean skipped) {
    problems++;
    if (bar != null) {
      bar.step();
      message();
    }
  }

  @Override
  public void recordDone(String key, Change change) {
    records++;
    if (bar != null && records % 64 == 0) {
      message();
    }
  }

  @Override
  public void chunksEmbedded(int count) {
    embedded += count;
    if (bar != null) {
      message();
    }
  }

  private void message() {
    var extra = records + " records, " + embedded + " chunks embedded";
    bar.setExtraMessage(problems == 0 ? extra : extra + ", " + problems + " files not imported");
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.close();
      bar = null;
    }
  }
}
