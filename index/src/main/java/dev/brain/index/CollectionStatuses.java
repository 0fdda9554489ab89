package dev.brain.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.lucene.search.IndexSearcher;

/**
 * The status of every collection an index holds records of or has synced: counts from the
 * documents, the outcome of its last complete sync from the commit.
 */
final class CollectionStatuses {
  private CollectionStatuses() {}

  /** By name; a collection only deleted documents still name is left out. */
  static List<CollectionStatus> read(IndexSearcher searcher, Map<String, CollectionSync> syncs)
      throws IOException {
    var names = new TreeSet<>(syncs.keySet());
    names.addAll(IndexReads.collectionNames(searcher));
    var out = new ArrayList<CollectionStatus>();
    for (String name : names) {
      CollectionSync sync = syncs.get(name);
      int records = searcher.count(IndexReads.inCollection(name, IndexReads.recordsQuery()));
      if (records == 0 && sync == null) {
        continue; // only deleted documents name it (doc values keep them until a merge)
      }
      out.add(status(searcher, name, records, sync));
    }
    return out;
  }

  private static CollectionStatus status(
      IndexSearcher searcher, String name, int records, CollectionSync sync) throws IOException {
    int chunks = searcher.count(IndexReads.inCollection(name, IndexReads.chunksQuery()));
    int embedded = searcher.count(IndexReads.inCollection(name, IndexReads.embeddedChunksQuery()));
    if (sync == null) {
      return new CollectionStatus(
          name,
          records,
          chunks,
          embedded,
          0,
          AttachmentCounts.NONE,
          null,
          List.of(),
          List.of(),
          List.of(),
          List.of(),
          0);
    }
    return new CollectionStatus(
        name,
        records,
        chunks,
        embedded,
        sync.files(),
        sync.attachments(),
        sync.at(),
        sync.skipped(),
        sync.failed(),
        sync.truncated(),
        sync.warnings(),
        sync.moreIssues());
  }
}
