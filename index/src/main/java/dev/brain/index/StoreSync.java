package dev.brain.index;

import dev.brain.chunking.Chunker;
import dev.brain.index.importer.Importers;
import dev.brain.index.store.RecordStore;
import dev.brain.models.Embedder;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * brain's one sync pipeline writing to a store outside the embedded index (the SolrCloud backend):
 * the same walk, reading, stale deletes, lexical-first writes and embedding pass as {@link
 * BrainIndex}'s syncs. Not API: for the backends of other modules.
 */
public final class StoreSync {

  private final SyncRun run;

  /** A sync of {@code config} into {@code store}; one per sync. */
  // The store's package is exported only to the backends that implement it: only they call this.
  @SuppressWarnings("exports")
  public StoreSync(
      IndexConfig config,
      RecordStore store,
      Supplier<Embedder> embedder,
      Supplier<Chunker> chunker,
      SyncListener listener) {
    Importers importers = Importers.defaults();
    this.run =
        new SyncRun(
            config,
            new RecordStoreAdapter(store),
            embedder,
            chunker,
            EmbeddingCache.none(),
            importers,
            importers::read,
            Map.of(),
            listener == null ? SyncListener.NONE : listener);
  }

  /** Syncs the collections: reads their files, deletes what is gone, embeds what is missing. */
  public SyncReport run(List<CollectionRoot> collections) throws IOException {
    return run.run(collections);
  }

  /** Adds or replaces records handed over directly; nothing is deleted. */
  public SyncReport put(List<CorpusRecord> records) throws IOException {
    return run.put(records);
  }
}
