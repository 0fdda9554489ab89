package dev.brain.solr;

import static dev.brain.index.IndexFields.*;

import dev.brain.index.EmbeddingInput;
import dev.brain.index.IndexConfig;
import dev.brain.index.SyncListener;
import dev.brain.models.Embedder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/**
 * The embedding half of a Solr sync, batched as the embedded index's embedding pass batches:
 * records in the order the sync wrote them (then any a stopped sync left), taken until about {@link
 * IndexConfig#embedBatchSize()} chunks lack a vector, their distinct inputs (title and chunk text)
 * embedded in one call; a record with more missing vectors than a batch goes last, in slices. The
 * quantized model gives slightly different vectors for a text in another batch, so the same batches
 * give both backends the same vectors. Commits every {@link IndexConfig#commitInterval()}, so the
 * vector lane grows while it runs.
 */
final class SolrEmbedPass {

  /**
   * What the pass did.
   *
   * @param failure why it stopped early (the remaining chunks wait for the next sync), or null
   */
  record Result(long embedded, long reused, long embedNanos, String failure) {}

  private final SolrStore store;
  private final IndexConfig config;
  private final Supplier<Embedder> embedder;
  private final SyncListener listener;
  private long embedded;
  private long reused;
  private long nanos;
  private long lastCommit = System.nanoTime();

  SolrEmbedPass(
      SolrStore store, IndexConfig config, Supplier<Embedder> embedder, SyncListener listener) {
    this.store = store;
    this.config = config;
    this.embedder = embedder;
    this.listener = listener;
  }

  /**
   * @param written keys of the records this sync wrote, in order
   */
  Result run(List<String> written) throws IOException {
    Map<String, Integer> missing = missingByRecord(written);
    if (missing.isEmpty()) {
      return new Result(0, 0, 0, null);
    }
    listener.embeddingPlanned(missing.values().stream().mapToLong(Integer::longValue).sum());
    int size = config.embedBatchSize();
    var large = new ArrayList<String>();
    var batch = new ArrayList<String>();
    int batchMissing = 0;
    try {
      for (var e : missing.entrySet()) {
        if (e.getValue() > size) {
          large.add(e.getKey());
          continue;
        }
        batch.add(e.getKey());
        batchMissing += e.getValue();
        if (batchMissing >= size) {
          embed(batch, Integer.MAX_VALUE);
          batch.clear();
          batchMissing = 0;
        }
      }
      embed(batch, Integer.MAX_VALUE);
      for (String key : large) {
        embed(List.of(key), size);
      }
    } catch (SolrWrites.BatchFailed e) {
      return new Result(
          embedded,
          reused,
          nanos,
          e.getMessage() + "; the chunks still without a vector are embedded by the next sync");
    }
    return new Result(embedded, reused, nanos, null);
  }

  /** Records with chunks lacking a vector: those written this sync first, in their order. */
  private Map<String, Integer> missingByRecord(List<String> written) throws IOException {
    var counts = new HashMap<String, Integer>();
    var q = new SolrQuery("*:*");
    q.addFilterQuery(SolrQueries.CHUNKS, SolrDocs.HAS_VECTOR + ":false");
    q.setFields(SolrDocs.ID, PARENT_KEY);
    store.each(q, d -> counts.merge(SolrDocs.str(d, PARENT_KEY), 1, Integer::sum));
    var ordered = new LinkedHashMap<String, Integer>();
    for (String key : written) {
      Integer n = counts.remove(key);
      if (n != null) {
        ordered.put(key, n);
      }
    }
    counts.keySet().stream().sorted().forEach(k -> ordered.put(k, counts.get(k)));
    return ordered;
  }

  /**
   * Embeds the missing chunks of {@code keys}, {@code slice} distinct inputs per embedder call (all
   * at once for a batch of small records), and writes the chunks again with their vectors.
   */
  private void embed(List<String> keys, int slice) throws IOException {
    if (keys.isEmpty()) {
      return;
    }
    var chunks = new ArrayList<SolrDocument>();
    var q = new SolrQuery("*:*");
    q.addFilterQuery(SolrQueries.CHUNKS, SolrQueries.anyOf(PARENT_KEY, keys));
    store.each(q, chunks::add);
    Map<String, Integer> order = new HashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      order.put(keys.get(i), i);
    }
    chunks.sort(
        Comparator.comparingInt((SolrDocument d) -> order.get(SolrDocs.str(d, PARENT_KEY)))
            .thenComparingInt(d -> SolrDocs.integer(d, ORDINAL)));
    var todo = new ArrayList<SolrDocument>();
    for (SolrDocument d : chunks) {
      if (!Boolean.TRUE.equals(d.getFirstValue(SolrDocs.HAS_VECTOR))) {
        todo.add(d);
      }
    }
    Map<String, float[]> known =
        store.vectorsByEmbedHash(todo.stream().map(d -> SolrDocs.str(d, EMBED_HASH)).toList());
    var inputs = new LinkedHashMap<String, String>();
    var out = new ArrayList<SolrDocument>();
    for (SolrDocument d : todo) {
      String hash = SolrDocs.str(d, EMBED_HASH);
      if (known.containsKey(hash)) {
        reused++;
      } else if (inputs.putIfAbsent(
              hash, EmbeddingInput.of(SolrDocs.str(d, TITLE), SolrDocs.str(d, TEXT)))
          != null) {
        reused++; // an identical input in this batch is embedded once
      }
      out.add(d);
      if (inputs.size() >= slice) {
        write(out, known, inputs);
        out.clear();
        inputs.clear();
      }
    }
    write(out, known, inputs);
  }

  private void write(
      List<SolrDocument> docs, Map<String, float[]> known, Map<String, String> inputs)
      throws IOException {
    if (docs.isEmpty()) {
      return;
    }
    if (!inputs.isEmpty()) {
      long t0 = System.nanoTime();
      List<float[]> vectors = embedder.get().embedPassages(List.copyOf(inputs.values()));
      nanos += System.nanoTime() - t0;
      int i = 0;
      for (String hash : inputs.keySet()) {
        known.put(hash, vectors.get(i++));
      }
      embedded += inputs.size();
      listener.chunksEmbedded(inputs.size());
    }
    var rewritten = new ArrayList<SolrInputDocument>(docs.size());
    for (SolrDocument d : docs) {
      SolrInputDocument doc = SolrDocs.input(d);
      SolrDocs.setVector(doc, known.get(SolrDocs.str(d, EMBED_HASH)));
      rewritten.add(doc);
    }
    store.writes().add(rewritten);
    if (System.nanoTime() - lastCommit >= config.commitInterval().toNanos()) {
      store.writes().commit();
      lastCommit = System.nanoTime();
    }
  }
}
