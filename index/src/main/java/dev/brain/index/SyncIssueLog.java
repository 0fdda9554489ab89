package dev.brain.index;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The issues of one sync's files as they come (skipped, failed, truncated, warned about), told to
 * the listener at once and kept for the report and each collection's recorded outcome; and the
 * files that could not be read, whose earlier records must stay.
 */
final class SyncIssueLog {
  private final SyncListener listener;
  private final List<SyncReport.FileIssue> skipped = new ArrayList<>();
  private final List<SyncReport.FileIssue> failed = new ArrayList<>();
  private final List<SyncReport.FileIssue> truncated = new ArrayList<>();
  private final List<SyncReport.FileIssue> warnings = new ArrayList<>();
  private final Set<String> unreadOrigins = new HashSet<>();

  SyncIssueLog(SyncListener listener) {
    this.listener = listener;
  }

  /** A link or special file the walk left out: listed in the report as skipped. */
  void skippedByWalk(Path file, String reason) {
    skipped.add(new SyncReport.FileIssue(file, reason));
    listener.fileFailed(file, reason, true);
  }

  /** A file read whole: its warnings and truncated records, then that it is done. */
  void fileRead(SyncItem.FileRead f) {
    for (String warning : f.warnings()) {
      warnings.add(new SyncReport.FileIssue(f.file(), warning));
      listener.fileWarning(f.file(), warning);
    }
    for (String reason : f.truncated()) {
      truncated.add(new SyncReport.FileIssue(f.file(), reason));
      listener.fileWarning(f.file(), reason);
    }
    listener.fileDone(f.file(), f.records());
  }

  /** A file skipped or failed by the reader: its records are kept. */
  void fileIssue(SyncItem.FileIssue f) {
    var issue = new SyncReport.FileIssue(f.file(), f.reason());
    (f.skipped() ? skipped : failed).add(issue);
    unreadOrigins.add(f.file().toString());
    listener.fileFailed(f.file(), f.reason(), f.skipped());
  }

  /** Whether the file {@code origin} could not be read this run. */
  boolean unread(String origin) {
    return unreadOrigins.contains(origin);
  }

  /** Forgets what the walk skipped outside {@code scope} (a partial sync walks everything). */
  void keepSkippedWithin(List<Path> scope) {
    skipped.removeIf(issue -> !PartialSync.within(issue.file(), scope));
  }

  /** This run's issues. */
  SyncIssues issues() {
    return new SyncIssues(skipped, failed, truncated, warnings);
  }

  /** This run's issues, then the earlier ones about files outside a partial sync's scope. */
  SyncIssues issues(PartialSync partial) {
    CollectionSync previous = partial.previous();
    if (previous == null) {
      return issues();
    }
    return new SyncIssues(
        withEarlier(skipped, partial, previous.skipped()),
        withEarlier(failed, partial, previous.failed()),
        withEarlier(truncated, partial, previous.truncated()),
        withEarlier(warnings, partial, previous.warnings()));
  }

  private static List<SyncReport.FileIssue> withEarlier(
      List<SyncReport.FileIssue> now, PartialSync partial, List<CollectionStatus.Issue> earlier) {
    if (earlier == null) {
      return now;
    }
    var all = new ArrayList<>(now);
    for (CollectionStatus.Issue issue : earlier) {
      Path file = Path.of(issue.file());
      if (!partial.covers(file)) {
        all.add(new SyncReport.FileIssue(file, issue.reason()));
      }
    }
    return all;
  }
}
