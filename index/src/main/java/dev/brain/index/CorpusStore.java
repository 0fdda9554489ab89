package dev.brain.index;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where synced records are kept: the embedded Lucene index ({@link BrainIndex}) or a shared one
 * (SolrCloud, module {@code solr}). A sync reads files with brain's importers, chunks and embeds
 * with brain's own models, and writes here; {@code brain status}, {@code brain get} and {@code
 * brain stats} read from here. Nothing that syncs or reports knows which store it talks to.
 */
public interface CorpusStore extends AutoCloseable {

  /** The configuration: model, chunking and batch sizes the store is synced with. */
  IndexConfig config();

  /** Where the store lives, for a reader: the index folder or the Solr collection. */
  String location();

  /** See {@link BrainIndex#syncCollections}. */
  SyncReport syncCollections(List<CollectionRoot> collections, SyncListener listener)
      throws IOException;

  /**
   * See {@link BrainIndex#syncIfUnchanged}; a store that cannot tell without writing answers empty
   * (the caller syncs).
   */
  default Optional<SyncReport> syncIfUnchanged(List<CollectionRoot> collections)
      throws IOException {
    return Optional.empty();
  }

  /** See {@link BrainIndex#syncChanged}. */
  SyncReport syncChanged(CollectionRoot collection, Set<Path> changed, SyncListener listener)
      throws IOException;

  /** See {@link BrainIndex#put}. */
  SyncReport put(List<CorpusRecord> records, SyncListener listener) throws IOException;

  /**
   * Deletes every record of the collection {@code name} with its chunks.
   *
   * @return how many records were deleted
   */
  long removeCollection(String name) throws IOException;

  /** Every collection the store holds records of or has synced, by name. */
  List<CollectionStatus> collections() throws IOException;

  /** Counts by kind, source type and tag, chunk count, size and metadata. */
  IndexStats stats() throws IOException;

  /** The record with this key with its chunks and backlinks, or empty if there is none. */
  Optional<RecordDetail> get(String key) throws IOException;

  /**
   * The keys a text that is not a key may mean (a path, a title, a URL), best first, for "did you
   * mean" when {@link #get} finds none; see {@link BrainIndex#keysFor}. A store that cannot tell
   * answers none.
   */
  default List<String> keysFor(String text) throws IOException {
    return List.of();
  }

  /** Model, dimension, vector format and last sync time. */
  IndexMetadata metadata();

  /**
   * Moves a reader to the latest commit of whichever process writes.
   *
   * @return true if the view is current afterwards
   */
  boolean refresh() throws IOException;

  @Override
  void close() throws IOException;
}
