package dev.brain.index;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a sync removes: the records whose file or entry is gone, and the stored states of files that
 * are gone or must be read again. Only records and files of the synced collections are touched.
 */
final class StaleRecords {

  private final SyncStore store;
  private final SyncIssueLog issues;
  private final SyncListener listener;
  private final SyncCounts counts;

  StaleRecords(SyncStore store, SyncIssueLog issues, SyncListener listener, SyncCounts counts) {
    this.store = store;
    this.issues = issues;
    this.listener = listener;
    this.counts = counts;
  }

  /**
   * Deletes records of a synced collection, from a file under its root, that were not produced this
   * run: the file is gone, or the entry left its JSONL/feed file. Files that failed to read keep
   * theirs; other collections are never touched.
   */
  void deleteStale(
      Map<String, IndexReads.RecordState> states,
      Set<String> produced,
      List<CollectionRoot> collections,
      PartialSync partial)
      throws IOException {
    for (var entry : states.entrySet()) {
      String key = entry.getKey();
      String origin = entry.getValue().origin();
      if (produced.contains(key) || origin == null || issues.unread(origin)) {
        continue;
      }
      if (partial != null && !partial.covers(Path.of(origin))) {
        continue; // outside what changed: not looked at this time
      }
      if (isIn(origin, entry.getValue().collection(), collections)) {
        store.delete(key);
        counts.deleted++;
        listener.recordDone(key, SyncListener.Change.DELETED);
      }
    }
  }

  /**
   * Stores the state of a file read whole (written after its records, so no commit holds a state
   * ahead of them), or drops the state of one whose outcome may not be replayed.
   */
  void rememberFile(SyncItem.FileRead f) throws IOException {
    if (f.unread()) {
      return;
    }
    String path = f.file().toString();
    if (f.remember() == null) {
      store.forgetFile(path);
    } else {
      store.rememberFile(path, f.remember());
    }
  }

  /** A file that could not be read (or a record of it) is read again next time. */
  void forgetFile(Path file) throws IOException {
    if (!file.equals(SyncRun.GIVEN)) {
      store.forgetFile(file.toString());
    }
  }

  /** Drops the states of files of a synced collection that the walk no longer found. */
  void forgetGoneFiles(
      Map<String, FileStates.FileState> fileStates,
      List<RecordPreparer.FileTask> files,
      List<CollectionRoot> collections,
      PartialSync partial)
      throws IOException {
    var walked = new HashSet<String>();
    files.forEach(t -> walked.add(t.file().toString()));
    for (var entry : fileStates.entrySet()) {
      String path = entry.getKey();
      if (walked.contains(path) || (partial != null && !partial.covers(Path.of(path)))) {
        continue;
      }
      if (isIn(path, entry.getValue().collection(), collections)) {
        store.forgetFile(path);
      }
    }
  }

  private static boolean isIn(String origin, String collection, List<CollectionRoot> synced) {
    Path path = Path.of(origin);
    return synced.stream().anyMatch(c -> c.name().equals(collection) && c.contains(path));
  }
}
