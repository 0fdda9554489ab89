package dev.brain.index;

import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;

/**
 * The commits of a brain index and what they carry. The metadata and each collection's last sync
 * live in the commit user data, so they change only with a commit and never disagree with the
 * documents; this holds the latest of both. Commits happen on the sync thread only; a read-only
 * index reloads both from the commit its searcher sees.
 */
final class IndexCommits {
  private final IndexConfig config;
  private final IndexWriter writer; // null when read-only
  private final SearcherManager searchers;
  private volatile IndexMetadata metadata;
  private volatile Map<String, CollectionSync> collectionSyncs = Map.of();
  // Whether a commit that was not a sync's final one wrote changes since the last final one.
  private boolean writtenSinceComplete;
  // The version of the reader whose commit reload() read last (read-only index); -1: none yet.
  private volatile long reloadedVersion = -1;

  IndexCommits(
      IndexConfig config, IndexWriter writer, SearcherManager searchers, IndexMetadata metadata) {
    this.config = config;
    this.writer = writer;
    this.searchers = searchers;
    this.metadata = metadata;
  }

  /** The metadata of the last commit. */
  IndexMetadata metadata() {
    return metadata;
  }

  /** The last recorded sync of each collection, by name. */
  Map<String, CollectionSync> collectionSyncs() {
    return collectionSyncs;
  }

  /** Reads the collections' syncs from the commit the searchers see. */
  void loadCollectionSyncs() throws IOException {
    collectionSyncs = Map.copyOf(CollectionSync.fromUserData(searchedCommit()));
  }

  /** Reads metadata and collections' syncs from the commit the searchers see (read-only index). */
  void reload() throws IOException {
    IndexSearcher searcher = searchers.acquire();
    try {
      var reader = (DirectoryReader) searcher.getIndexReader();
      // Each commit has a version of its own: the same one carries the same data, parsed already.
      if (reader.getVersion() == reloadedVersion) {
        return;
      }
      var userData = reader.getIndexCommit().getUserData();
      metadata = IndexMetadata.fromUserData(userData, config.directory().toString());
      collectionSyncs = Map.copyOf(CollectionSync.fromUserData(userData));
      reloadedVersion = reader.getVersion();
    } finally {
      searchers.release(searcher);
    }
  }

  private Map<String, String> searchedCommit() throws IOException {
    IndexSearcher searcher = searchers.acquire();
    try {
      return ((DirectoryReader) searcher.getIndexReader()).getIndexCommit().getUserData();
    } finally {
      searchers.release(searcher);
    }
  }

  /** Commits what the writer holds; called only on the sync thread. */
  void commit(boolean complete) throws IOException {
    commit(complete, List.of());
  }

  /**
   * Commits what the writer holds.
   *
   * @param complete true for the final commit of a sync, which records the sync time
   * @param synced the outcome per collection of a finished sync (empty otherwise)
   */
  void commit(boolean complete, List<CollectionSync> synced) throws IOException {
    if (complete && changesOnlyTimes(synced)) {
      // Nothing to record but the time: a commit would be an fsync (and a new searcher) for a
      // sync that found everything as it was, so the last one stands, with its time.
      return;
    }
    IndexMetadata next = complete ? metadata.synced(config, Instant.now()) : metadata;
    var syncs = new TreeMap<>(collectionSyncs);
    synced.forEach(s -> syncs.put(s.name(), s));
    commitWith(next, syncs);
    writtenSinceComplete = !complete;
  }

  /**
   * Whether a final commit with {@code synced} would change nothing but sync times: the writer
   * holds no change, no commit since the last complete one wrote any, the metadata is as the
   * configuration would write it, and each collection's outcome is the recorded one.
   */
  boolean changesOnlyTimes(List<CollectionSync> synced) {
    if (writtenSinceComplete
        || (writer != null && writer.hasUncommittedChanges())
        || metadata.lastSyncAt() == null) {
      return false;
    }
    if (!metadata.equals(metadata.synced(config, metadata.lastSyncAt()))) {
      return false;
    }
    for (CollectionSync s : synced) {
      CollectionSync before = collectionSyncs.get(s.name());
      if (before == null || !s.equals(before.at(s.at()))) {
        return false;
      }
    }
    return true;
  }

  /** Commits with the collection {@code name} no longer recorded (its documents are deleted). */
  void commitWithout(String name) throws IOException {
    var syncs = new TreeMap<>(collectionSyncs);
    syncs.remove(name);
    commitWith(metadata, syncs);
    writtenSinceComplete = false;
  }

  private void commitWith(IndexMetadata next, Map<String, CollectionSync> syncs)
      throws IOException {
    var userData = new HashMap<>(next.toUserData());
    syncs.values().forEach(s -> userData.put(s.userDataKey(), s.toJson()));
    writer.setLiveCommitData(userData.entrySet());
    writer.commit();
    metadata = next;
    collectionSyncs = Map.copyOf(syncs);
    searchers.maybeRefreshBlocking();
  }

  /** After a failed sync, keeps the records written so far (each is complete) if possible. */
  void commitWhatIsComplete(Exception failure) {
    try {
      if (writer.isOpen()) {
        commit(false);
      }
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e);
    }
  }
}
