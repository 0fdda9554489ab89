package dev.brain.index;

import dev.brain.models.Embedder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The second half of a sync: embeds every chunk in the index that has no vector yet (written by the
 * lexical half of this sync, or left by a sync that was killed while embedding) and rewrites each
 * such record with its chunks in one atomic block, committing as it goes. Vectors already in the
 * index are reused by embedding-input hash, so nothing committed is ever embedded twice.
 */
final class EmbedPass {

  /** Commits when the commit interval has passed. */
  interface Checkpoint {
    void maybeCommit() throws IOException;
  }

  /**
   * What the pass did.
   *
   * @param embedded distinct inputs sent to the embedder
   * @param reused chunks of rewritten records whose vector was found in the index
   * @param embedNanos time inside the embedder
   */
  record Outcome(long embedded, long reused, long embedNanos) {}

  private final IndexConfig config;
  private final SyncStore store;
  private final Supplier<Embedder> embedder;
  private final EmbeddingCache cache;
  private final SyncListener listener;
  private final Checkpoint checkpoint;
  private long embedded;
  private long reused;
  private long embedNanos;

  /**
   * Vectors this pass embedded since the searcher last saw the writer's changes, by embedding-input
   * hash: the index lookup of a later batch finds them here instead. Reopening the searcher for
   * every batch would flush a tiny segment each time (and each such segment's vector graph is built
   * again by every merge), so it is reopened only once this many are waiting.
   */
  static final int REFRESH_AFTER = 8192;

  private final Map<String, float[]> unseen = new HashMap<>();

  EmbedPass(
      IndexConfig config,
      SyncStore store,
      Supplier<Embedder> embedder,
      EmbeddingCache cache,
      SyncListener listener,
      Checkpoint checkpoint) {
    this.config = config;
    this.store = store;
    this.embedder = embedder;
    this.cache = cache;
    this.listener = listener;
    this.checkpoint = checkpoint;
  }

  Outcome run() throws IOException {
    store.refresh();
    Map<String, Integer> missingByKey = store.missingChunksByRecord();
    if (missingByKey.isEmpty()) {
      return new Outcome(0, 0, 0);
    }
    long total = missingByKey.values().stream().mapToLong(Integer::longValue).sum();
    listener.embeddingPlanned(total);
    // Records with more missing chunks than a batch go last, each in slices: one long file must
    // not keep every other record from its vectors.
    var large = new ArrayList<String>();
    var batch = new LinkedHashMap<String, Integer>();
    int batchMissing = 0;
    for (var entry : missingByKey.entrySet()) {
      if (entry.getValue() > config.embedBatchSize()) {
        large.add(entry.getKey());
        continue;
      }
      batch.put(entry.getKey(), entry.getValue());
      batchMissing += entry.getValue();
      if (batchMissing >= config.embedBatchSize()) {
        embedBatch(batch);
        batch.clear();
        batchMissing = 0;
      }
    }
    embedBatch(batch);
    for (String key : large) {
      embedInSlices(key, missingByKey.get(key));
    }
    return new Outcome(embedded, reused, embedNanos);
  }

  /**
   * Embeds one record's missing chunks a batch at a time, rewriting the record with the vectors it
   * has whenever the commit interval has passed (the rest stay missing for a later pass), so a
   * killed sync keeps most of the work and a reader sees the coverage grow.
   */
  private void embedInSlices(String key, int missing) throws IOException {
    List<StoredBlock> loaded = load(List.of(key));
    if (loaded.isEmpty()) {
      return;
    }
    StoredBlock p = loaded.getFirst();
    var slice = new LinkedHashMap<String, String>();
    int stillMissing = 0;
    long lastWrite = System.nanoTime();
    for (int i = 0; i < p.chunks().size(); i++) {
      if (p.vectors()[i] != null) {
        continue;
      }
      stillMissing++;
      slice.putIfAbsent(p.embedHashes().get(i), EmbeddingInput.of(p.record(), p.chunks().get(i)));
      if (slice.size() >= config.embedBatchSize()) {
        fill(p, embed(slice));
        slice.clear();
        if (System.nanoTime() - lastWrite >= config.commitInterval().toNanos()) {
          store.rewrite(p);
          checkpoint.maybeCommit();
          lastWrite = System.nanoTime();
        }
      }
    }
    fill(p, embed(slice));
    reused += Math.max(0, missing - stillMissing);
    store.rewrite(p);
    checkpoint.maybeCommit();
  }

  /** Gives the chunks of {@code p} still without a vector the ones embedded for their inputs. */
  private void fill(StoredBlock p, Map<String, float[]> byHash) {
    for (int i = 0; i < p.chunks().size(); i++) {
      if (p.vectors()[i] == null) {
        p.vectors()[i] = byHash.get(p.embedHashes().get(i));
      }
    }
    int embeddedHere = byHash.size();
    if (embeddedHere > 0) {
      listener.chunksEmbedded(embeddedHere);
    }
  }

  /**
   * Embeds and rewrites a batch of records.
   *
   * @param keys record keys with how many of their chunks lack a vector in the index
   */
  private void embedBatch(Map<String, Integer> keys) throws IOException {
    if (keys.isEmpty()) {
      return;
    }
    List<StoredBlock> pending = load(List.copyOf(keys.keySet()));
    // Identical inputs within the batch are embedded once.
    var inputs = new LinkedHashMap<String, String>();
    for (StoredBlock p : pending) {
      int stillMissing = 0;
      for (int i = 0; i < p.chunks().size(); i++) {
        if (p.vectors()[i] == null) {
          stillMissing++;
          inputs.putIfAbsent(
              p.embedHashes().get(i), EmbeddingInput.of(p.record(), p.chunks().get(i)));
        }
      }
      // Chunks without a vector whose input another chunk already had embedded.
      reused += Math.max(0, keys.getOrDefault(p.record().key(), 0) - stillMissing);
    }
    Map<String, float[]> byHash = embed(inputs);
    for (StoredBlock p : pending) {
      for (int i = 0; i < p.chunks().size(); i++) {
        if (p.vectors()[i] == null) {
          p.vectors()[i] = byHash.get(p.embedHashes().get(i));
        }
      }
      store.rewrite(p);
    }
    if (!inputs.isEmpty()) {
      listener.chunksEmbedded(inputs.size());
    }
    checkpoint.maybeCommit();
  }

  private Map<String, float[]> embed(Map<String, String> inputs) {
    var byHash = new HashMap<String, float[]>();
    if (inputs.isEmpty()) {
      return byHash;
    }
    long t0 = System.nanoTime();
    List<float[]> vectors = embedder.get().embedPassages(List.copyOf(inputs.values()));
    embedNanos += System.nanoTime() - t0;
    checkShape(vectors, inputs.size());
    int i = 0;
    for (String hash : inputs.keySet()) {
      byHash.put(hash, vectors.get(i++));
    }
    embedded += inputs.size();
    cache.put(byHash);
    unseen.putAll(byHash);
    return byHash;
  }

  /**
   * Reads the records back with their chunks and the vectors the index already holds. The searcher
   * may not see the blocks earlier batches of this pass rewrote: each record is loaded once per
   * pass, so what it reads of {@code keys} is current, and the vectors those batches embedded are
   * found in {@link #unseen}.
   */
  private List<StoredBlock> load(List<String> keys) throws IOException {
    if (unseen.size() >= REFRESH_AFTER) {
      store.refresh();
      unseen.clear();
    }
    var out = new ArrayList<StoredBlock>(keys.size());
    for (String key : keys) {
      StoredBlock p = store.load(key, this::unseenOrCached);
      if (p != null) {
        out.add(p);
      }
    }
    return out;
  }

  /** A vector this pass embedded that the searcher may not see yet, else the cache's. */
  private float[] unseenOrCached(String embedHash) {
    float[] vector = unseen.get(embedHash);
    return vector != null ? vector : cache.find(embedHash);
  }

  private void checkShape(List<float[]> vectors, int expected) {
    int dimension = config.model().dimension();
    if (vectors.size() != expected
        || vectors.stream().anyMatch(v -> v == null || v.length != dimension)) {
      throw new IllegalStateException(
          "the embedder returned "
              + vectors.size()
              + " vectors for "
              + expected
              + " passages, or vectors not of dimension "
              + dimension);
    }
  }
}
