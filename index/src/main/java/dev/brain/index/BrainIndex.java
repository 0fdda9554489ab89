package dev.brain.index;

import dev.brain.models.Embedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.IOUtils;

/**
 * A brain index on disk: the module's entry point. Opens (or creates) the Lucene index of an {@link
 * IndexConfig}, syncs files into it incrementally, and answers {@link #stats()} and {@link
 * #get(String)}. A {@code BrainIndex} opened with {@link #open} holds the index's only writer;
 * readers share near-real-time searchers. One opened with {@link #openReadOnly} takes no lock and
 * sees the last commit of whichever process writes (for {@code brain serve} beside a running {@code
 * brain index}). Thread-safe; one sync runs at a time.
 *
 * <p>The embedding model is loaded only when a sync has records to chunk or embed (or when {@link
 * #embedder()} is called), so {@code stats} and {@code get} never load ONNX Runtime.
 */
public final class BrainIndex implements CorpusStore {

  private final IndexConfig config;
  private final Directory directory;
  private final IndexWriter writer; // null when read-only
  private final SearcherManager searchers;
  private final Analyzer analyzer;
  private final IndexCommits commits;
  private final LazyEmbedder embedder;
  private final IndexWrites writes;
  private final DirectoryChanges changes; // null when writable: its own commits refresh it

  private BrainIndex(
      IndexConfig config,
      Directory directory,
      IndexWriter writer,
      Analyzer analyzer,
      IndexMetadata metadata,
      Embedder given)
      throws IOException {
    this.config = config;
    this.directory = directory;
    this.writer = writer;
    this.analyzer = analyzer;
    this.embedder = new LazyEmbedder(config, given);
    this.searchers =
        writer != null ? new SearcherManager(writer, null) : new SearcherManager(directory, null);
    this.commits = new IndexCommits(config, writer, searchers, metadata);
    commits.loadCollectionSyncs();
    this.writes = new IndexWrites(config, writer, searchers, commits, embedder);
    this.changes = writer == null ? new DirectoryChanges(config.directory()) : null;
  }

  /**
   * Opens the index of {@code config}, creating it if the folder holds none. The embedding model is
   * loaded on first need and closed with the index.
   *
   * @throws IndexMismatchException if the index was built with another model, dimension or vector
   *     format, or by a brain with a newer schema
   * @throws IndexLockedException if another writer has the index open
   */
  public static BrainIndex open(IndexConfig config) throws IOException {
    return open(config, null);
  }

  /**
   * Opens the index of {@code config} with an embedder the caller already has (and keeps ownership
   * of: closing the index does not close it). For tests and for the retrieval module, which embeds
   * queries with the same model.
   *
   * @param embedder an embedder for {@code config.model()}, or {@code null} to load one lazily
   * @throws IllegalArgumentException if the embedder runs another model than the configuration
   */
  public static BrainIndex open(IndexConfig config, Embedder embedder) throws IOException {
    Objects.requireNonNull(config, "config");
    IndexDirectory.requireModel(embedder, config);
    Files.createDirectories(config.directory());
    Directory directory = FSDirectory.open(config.directory());
    try {
      IndexMetadata existing = IndexDirectory.readMetadata(directory, config);
      Analyzer analyzer = new TextAnalyzer();
      IndexWriter writer = IndexDirectory.openWriter(directory, config, analyzer);
      IndexMetadata metadata = existing;
      if (metadata == null) {
        metadata = IndexMetadata.fresh(config);
        writer.setLiveCommitData(metadata.toUserData().entrySet());
        writer.commit(); // an empty index with its metadata: stats and get work at once
      }
      return new BrainIndex(config, directory, writer, analyzer, metadata, embedder);
    } catch (IOException | RuntimeException e) {
      directory.close();
      throw e;
    }
  }

  /**
   * Opens an existing index for reading only: no write lock is taken, so this works while another
   * process syncs; {@link #refresh()} moves to that writer's latest commit. {@link #sync} throws.
   *
   * @param embedder an embedder for {@code config.model()}, or {@code null} to load one lazily
   * @throws java.nio.file.NoSuchFileException if there is no index in {@code config.directory()}
   * @throws IndexMismatchException as for {@link #open(IndexConfig)}
   */
  public static BrainIndex openReadOnly(IndexConfig config, Embedder embedder) throws IOException {
    Objects.requireNonNull(config, "config");
    IndexDirectory.requireModel(embedder, config);
    if (!Files.isDirectory(config.directory())) {
      throw IndexDirectory.noIndex(config);
    }
    Directory directory = FSDirectory.open(config.directory());
    try {
      IndexMetadata metadata = IndexDirectory.readMetadata(directory, config);
      if (metadata == null) {
        throw IndexDirectory.noIndex(config);
      }
      return new BrainIndex(config, directory, null, new TextAnalyzer(), metadata, embedder);
    } catch (IOException | RuntimeException e) {
      directory.close();
      throw e;
    }
  }

  /**
   * Deletes the index of {@code config} (for a rebuild, say of an index an older brain wrote). Only
   * a folder holding a Lucene index (or nothing) is emptied; anything else is refused.
   *
   * @throws IndexLockedException if a process has the index open for writing
   * @throws IOException if the folder holds files that are no index
   */
  public static void deleteIndex(IndexConfig config) throws IOException {
    IndexDirectory.delete(config);
  }

  /**
   * Whether {@code config}'s folder holds an index with a commit; false before the first sync
   * committed (no folder, or one a killed or still running first sync left without a commit).
   */
  public static boolean hasCommit(IndexConfig config) throws IOException {
    return IndexDirectory.hasCommit(config);
  }

  /** The configuration this index was opened with. */
  @Override
  public IndexConfig config() {
    return config;
  }

  /** The index folder. */
  @Override
  public String location() {
    return config.directory().toString();
  }

  /** Schema version, model, dimension, vector format and last sync time of the last commit. */
  @Override
  public IndexMetadata metadata() {
    return commits.metadata();
  }

  /**
   * Syncs {@code roots} (folders or single files), each as a collection named after its folder
   * ({@link CollectionRoot#of(Path)}; a clash of names gets {@code -2}, {@code -3}, ...). See
   * {@link #syncCollections}.
   *
   * @param listener progress callbacks, made on this thread
   * @throws java.nio.file.NoSuchFileException if a root does not exist
   * @throws IllegalStateException if another sync is running on this index
   */
  public SyncReport sync(List<Path> roots, SyncListener listener) throws IOException {
    return syncCollections(namedRoots(roots), listener);
  }

  /**
   * Each root as a collection named after its folder ({@link CollectionRoot#of(Path)}); a clash of
   * names gets {@code -2}, {@code -3}, ...
   */
  public static List<CollectionRoot> namedRoots(List<Path> roots) {
    var collections = new ArrayList<CollectionRoot>();
    var names = new HashSet<String>();
    for (Path root : roots) {
      String base = CollectionRoot.defaultName(root);
      String name = base;
      for (int n = 2; !names.add(name); n++) {
        name = base + "-" + n;
      }
      collections.add(CollectionRoot.of(name, root));
    }
    return collections;
  }

  /** {@link #sync(List, SyncListener)} without progress callbacks. */
  public SyncReport sync(List<Path> roots) throws IOException {
    return sync(roots, SyncListener.NONE);
  }

  /**
   * Brings the index in line with the files of {@code collections}, lexical first. New and changed
   * records are chunked and written with their chunks in one atomic update each (reusing stored
   * vectors of identical embedding inputs); unchanged records are skipped; records of a synced
   * collection whose file or entry is gone are deleted (other collections are untouched). That much
   * is committed before anything is embedded, so BM25 search covers the whole sync at once; then
   * every chunk in the index that lacks a vector is embedded and its record rewritten, committing
   * every {@link IndexConfig#commitInterval()}. A sync that is killed keeps what it committed, and
   * the next one embeds only what is still missing. With a summary model ({@link
   * IndexConfig#summaryModel()}) the long records are then summarized by it, each rewritten with
   * its model summary (and embedded) or with the reason its call failed. Unsupported, too large and
   * malformed files are reported and skipped.
   *
   * @param listener progress callbacks, made on this thread
   * @throws java.nio.file.NoSuchFileException if a root does not exist
   * @throws IllegalArgumentException if two collections share a name
   * @throws IllegalStateException if another sync is running on this index
   */
  @Override
  public SyncReport syncCollections(List<CollectionRoot> collections, SyncListener listener)
      throws IOException {
    return writes.sync(listener, run -> run.run(List.copyOf(collections)));
  }

  /**
   * Syncs {@code collections} if that writes nothing: walks them and decides each file by its stamp
   * against the last commit as {@link #syncCollections} does, and answers its report when nothing
   * changed (no file to read again whose records or state differ, no record to delete, no vector
   * missing, no collection outcome to record but its time). Empty as soon as the sync would write,
   * having written nothing: the caller then runs {@link #syncCollections} on a writable index. On a
   * read-only index it first moves to the latest commit and takes no lock, so a server that reads
   * the index answers an unchanged sync without opening it for writing. Never loads the embedding
   * model; always empty with a summary model.
   *
   * @throws java.nio.file.NoSuchFileException if a root does not exist
   * @throws IllegalArgumentException if two collections share a name
   */
  @Override
  public Optional<SyncReport> syncIfUnchanged(List<CollectionRoot> collections) throws IOException {
    refresh();
    return writes.syncIfUnchanged(run -> run.run(List.copyOf(collections)));
  }

  /**
   * Syncs only what changed in one collection: the files at or below {@code changed} (files or
   * folders, existing or gone) are read, and records from files there that are gone are deleted;
   * the rest of the collection is not read. Then, as {@link #syncCollections}, the missing vectors
   * are embedded. The collection's recorded outcome keeps earlier issues of files outside {@code
   * changed}. This is what a watcher runs after file events; after lost events it runs {@link
   * #syncCollections}.
   *
   * @throws java.nio.file.NoSuchFileException if the root does not exist
   * @throws IllegalStateException if another sync is running on this index
   */
  @Override
  public SyncReport syncChanged(
      CollectionRoot collection, java.util.Set<Path> changed, SyncListener listener)
      throws IOException {
    CollectionSync previous = commits.collectionSyncs().get(collection.name());
    return writes.sync(listener, run -> run.runChanged(collection, changed, previous));
  }

  /**
   * Adds or replaces records handed over directly, without files: each is chunked, embedded and
   * written like a synced one (unchanged ones, by content hash, are skipped). Nothing is deleted,
   * and a later {@link #sync} never deletes them either: they belong to the collection {@code
   * (records)}, which holds no files ({@link #removeCollection} removes them).
   *
   * @param listener progress callbacks, made on this thread; issues are reported under the file
   *     label {@code (records)}
   * @throws IllegalStateException if the index is read-only or another sync is running
   */
  @Override
  public SyncReport put(List<CorpusRecord> records, SyncListener listener) throws IOException {
    return writes.sync(listener, run -> run.put(records));
  }

  /**
   * Deletes every record (with its chunks) of the collection {@code name} and commits.
   *
   * @return how many records were deleted
   * @throws IllegalStateException if a sync is running on this index
   */
  @Override
  public long removeCollection(String name) throws IOException {
    return writes.removeCollection(name);
  }

  /**
   * Every collection the index holds records of or has synced, by name: its record, chunk and
   * embedded-chunk counts and the outcome of its last complete sync.
   */
  @Override
  public List<CollectionStatus> collections() throws IOException {
    return read(searcher -> CollectionStatuses.read(searcher, commits.collectionSyncs()));
  }

  /** Counts by kind, source type and tag, chunk count, size on disk and metadata. */
  @Override
  public IndexStats stats() throws IOException {
    return read(
        searcher -> StatsCollector.collect(searcher, config.directory(), commits.metadata()));
  }

  /** The record with this key with its chunks and backlinks, or empty if there is none. */
  @Override
  public Optional<RecordDetail> get(String key) throws IOException {
    return read(searcher -> IndexReads.get(searcher, key));
  }

  /**
   * The keys a text that is not a key may mean, best first: for a path or file name the notes whose
   * path ends with it (the {@code .md} optional), for a title the records of that title, for a URL
   * or a key of another kind the records of that web address, for a note key in the wrong
   * collection the notes of that name in the others. Empty when nothing matches.
   */
  @Override
  public List<String> keysFor(String text) throws IOException {
    return read(searcher -> IndexReads.keysFor(searcher, text));
  }

  /** A read of the current searcher, which is released after it. */
  private interface SearcherRead<T> {
    T apply(IndexSearcher searcher) throws IOException;
  }

  private <T> T read(SearcherRead<T> read) throws IOException {
    IndexSearcher searcher = searchers.acquire();
    try {
      return read.apply(searcher);
    } finally {
      searchers.release(searcher);
    }
  }

  /** See {@link IndexInternals#acquireSearcher}. */
  IndexSearcher acquireSearcher() throws IOException {
    return searchers.acquire();
  }

  /** See {@link IndexInternals#releaseSearcher}. */
  void releaseSearcher(IndexSearcher searcher) throws IOException {
    searchers.release(searcher);
  }

  /**
   * Makes changes visible to searchers acquired from now on: for a writable index, what was written
   * since the last refresh (syncs refresh at each commit, so this is rarely needed); for a
   * read-only one, the latest commit on disk, with its metadata.
   *
   * @return true if the searcher is current afterwards
   */
  @Override
  public boolean refresh() throws IOException {
    if (writer != null) {
      return searchers.maybeRefresh();
    }
    // A commit of another process changes the index folder's entries; while they stay as they
    // were, the view is current without reading the latest commit from disk.
    DirectoryChanges.Look look = changes.look();
    if (!look.mayHaveChanged()) {
      return true;
    }
    boolean current = searchers.maybeRefresh();
    commits.reload();
    if (current) {
      look.checked();
    }
    return current;
  }

  /** See {@link IndexInternals#analyzer}. */
  Analyzer analyzer() {
    return analyzer;
  }

  /**
   * The embedder of the index's model, loaded on first call (about a second). For the retrieval
   * module, which must embed queries with the model the index was built with.
   */
  public Embedder embedder() {
    return embedder.get();
  }

  /** Makes later syncs read files through {@code wrap} of the importers (tests count reads). */
  void readFilesThrough(java.util.function.UnaryOperator<RecordPreparer.FileReader> wrap) {
    writes.readFilesThrough(wrap);
  }

  /** Whether the embedding model has been loaded (tests check that reads never load it). */
  boolean embedderLoaded() {
    return embedder.loaded();
  }

  /** Closes the searchers, the writer (discarding uncommitted work) and an owned embedder. */
  @Override
  public void close() throws IOException {
    try {
      writes.close();
      IOUtils.close(searchers, writer, directory); // skips the null writer of a read-only index
    } finally {
      embedder.close();
    }
  }
}
