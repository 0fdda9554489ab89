package dev.brain.index;

import dev.brain.index.importer.Importers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The walk of one sync: which files of the collections to read, the attachments counted instead,
 * and the names each collection's files were read against (a note's links resolve against them).
 */
final class SyncWalk {

  private final Importers importers;
  private final SyncIssueLog issues;
  private final Map<String, AttachmentCounts> attachments = new HashMap<>();
  private final Map<String, String> readings = new HashMap<>(); // by collection, this walk's

  SyncWalk(Importers importers, SyncIssueLog issues) {
    this.importers = importers;
    this.issues = issues;
  }

  /**
   * Every file of every collection to read, each once (the first collection that lists it wins).
   * Attachments (images, audio, ...) are counted per collection instead: reading one only to report
   * it unsupported would list every picture of a vault as an issue.
   */
  List<RecordPreparer.FileTask> walk(List<CollectionRoot> collections) throws IOException {
    var files = new LinkedHashMap<Path, CollectionRoot>();
    for (CollectionRoot c : collections) {
      Path root = c.root().toAbsolutePath().normalize();
      var names = new ArrayList<String>();
      for (Path file : importers.walk(c.root(), c.allExcludes(), issues::skippedByWalk)) {
        Path f = file.toAbsolutePath().normalize();
        files.putIfAbsent(f, c);
        names.add(root.relativize(f).toString());
      }
      readings.put(c.name(), FileStates.reading(names));
    }
    var tasks = new ArrayList<RecordPreparer.FileTask>(files.size());
    var tallies = new LinkedHashMap<String, AttachmentCounts.Tally>();
    for (CollectionRoot c : collections) {
      tallies.put(c.name(), new AttachmentCounts.Tally());
    }
    files.forEach(
        (file, c) -> {
          if (!tallies.get(c.name()).add(file)) {
            tasks.add(new RecordPreparer.FileTask(file, c));
          }
        });
    tallies.forEach((name, tally) -> attachments.put(name, tally.counts()));
    return tasks;
  }

  /**
   * The collections whose file stamps this run may trust: their files were last all read by this
   * build, with the names this walk found (a note's links resolve against the other files' names).
   */
  Set<String> trusted(List<CollectionRoot> collections, Map<String, CollectionSync> lastSyncs) {
    var out = new HashSet<String>();
    for (CollectionRoot c : collections) {
      CollectionSync last = lastSyncs.get(c.name());
      if (last != null && last.reading() != null && last.reading().equals(reading(c))) {
        out.add(c.name());
      }
    }
    return out;
  }

  /** The names the walk found in {@code c}, as {@link FileStates#reading} summarizes them. */
  String reading(CollectionRoot c) {
    return readings.get(c.name());
  }

  /** The attachments counted in {@code c}. */
  AttachmentCounts attachmentsOf(CollectionRoot c) {
    return attachments.getOrDefault(c.name(), AttachmentCounts.NONE);
  }

  /** The attachments counted in all walked collections. */
  AttachmentCounts allAttachments() {
    return attachments.values().stream().reduce(AttachmentCounts.NONE, AttachmentCounts::plus);
  }
}
