package dev.brain.bench;

import dev.brain.index.BrainIndex;
import dev.brain.index.CorpusRecord;
import dev.brain.index.IndexConfig;
import dev.brain.index.SyncListener;
import dev.brain.index.SyncReport;
import dev.brain.retrieval.Backend;
import dev.brain.retrieval.Retriever;
import dev.brain.retrieval.SearchOptions;
import dev.brain.solr.SolrBackend;
import dev.brain.solr.SolrConfig;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.GenericSolrRequest;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.util.NamedList;

/**
 * Embedded index vs SolrCloud, side by side in one run (not JMH: a Solr search is a network round
 * trip to another JVM, measured as a user's search is). For each corpus size: the same synthetic
 * records (one chunk each, words drawn from a Zipf-like vocabulary, {@link SyntheticEmbedder}
 * vectors) are put into a fresh embedded index and a fresh Solr collection through brain's own
 * sync; then hybrid searches (BM25 + vector + exact tag, fused, rows built) are timed on each.
 *
 * <p>Usage: {@code BackendBench --solr-url URLS --sizes 10000,100000 --shards 2 --replicas 1 --dir
 * DIR [--solr-only]}. Prints one Markdown table row per backend and size; {@code --solr-only} skips
 * the embedded index (its curve to 1M chunks is {@code bench/run scale}'s, on the same corpus).
 */
public final class BackendBench {
  private BackendBench() {}

  private static final int WARMUP = 100;
  private static final int MEASURED = 300;

  /** One backend at one size. */
  record Row(
      String backend,
      int records,
      long chunks,
      double indexSeconds,
      double chunksPerSecond,
      double p50Ms,
      double p99Ms,
      long indexBytes,
      long heapBytes) {

    String markdown() {
      return String.format(
          Locale.ROOT,
          "| %s | %,d | %,d | %.1f | %,.0f | %.1f | %.1f | %,.0f | %,.0f |",
          backend,
          records,
          chunks,
          indexSeconds,
          chunksPerSecond,
          p50Ms,
          p99Ms,
          indexBytes / 1048576.0,
          heapBytes / 1048576.0);
    }
  }

  static final String HEADER =
      "| backend | records | chunks | index s | chunks/s | hybrid p50 ms | hybrid p99 ms |"
          + " index MB | heap MB |\n|---|---|---|---|---|---|---|---|---|";

  public static void main(String[] args) throws Exception {
    List<String> urls = List.of();
    List<Integer> sizes = List.of(10_000);
    int shards = 2;
    int replicas = 1;
    boolean embeddedToo = true;
    Path dir = Files.createTempDirectory("brain-backend-bench");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--solr-url" -> urls = List.of(args[++i].split(","));
        case "--sizes" ->
            sizes = Arrays.stream(args[++i].split(",")).map(Integer::parseInt).toList();
        case "--shards" -> shards = Integer.parseInt(args[++i]);
        case "--replicas" -> replicas = Integer.parseInt(args[++i]);
        case "--dir" -> dir = Path.of(args[++i]);
        case "--solr-only" -> embeddedToo = false;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    System.out.println(HEADER);
    for (int size : sizes) {
      List<CorpusRecord> records = new SyntheticCorpus().next(size);
      List<String> queries = SyntheticCorpus.queries(WARMUP + MEASURED);
      IndexConfig config = IndexConfig.defaults(dir.resolve("embedded-" + size));
      var embedder = new SyntheticEmbedder(config.model());
      if (embeddedToo) {
        try (Backend embedded = Backend.embedded(BrainIndex.open(config, embedder))) {
          System.out.println(run("embedded", embedded, records, queries, null, null).markdown());
        }
      }
      if (!urls.isEmpty()) {
        var solr = SolrConfig.ofUrls(urls, "bench-" + size, shards, replicas);
        try (SolrBackend backend = SolrBackend.open(solr, config, embedder)) {
          backend.deleteAll(); // a fresh collection: every record is written
          String name = "solr " + shards + "x" + replicas;
          System.out.println(
              run(name, backend, records, queries, urls, solr.collection()).markdown());
        }
      }
      System.out.flush();
    }
  }

  /**
   * @param solr the nodes' URLs for a Solr backend, null for the embedded one
   * @param collection the Solr collection
   */
  private static Row run(
      String name,
      Backend backend,
      List<CorpusRecord> records,
      List<String> queries,
      List<String> solr,
      String collection)
      throws IOException {
    SyncReport report = backend.put(records, SyncListener.NONE);
    var retriever = new Retriever(backend);
    SearchOptions options = SearchOptions.defaults();
    var millis = new double[MEASURED];
    for (int i = 0; i < queries.size(); i++) {
      long t0 = System.nanoTime();
      retriever.search(queries.get(i), options);
      if (i >= WARMUP) {
        millis[i - WARMUP] = (System.nanoTime() - t0) / 1e6;
      }
    }
    Arrays.sort(millis);
    long chunks = backend.stats().chunks();
    long bytes;
    long heap;
    if (solr == null) {
      bytes = size(backend.config().directory());
      heap = heapAfterGc();
    } else {
      long[] memory = solrMemory(solr, collection);
      bytes = memory[0];
      heap = memory[1];
    }
    double seconds = report.elapsed().toNanos() / 1e9;
    return new Row(
        name,
        records.size(),
        chunks,
        seconds,
        report.chunksWritten() / seconds,
        millis[(int) (MEASURED * 0.50)],
        millis[(int) (MEASURED * 0.99)],
        bytes,
        heap);
  }

  /**
   * The bytes of the collection's cores on every node (CoreAdmin STATUS; all replicas), and the
   * heap in use of the first node's JVM (system info): both answer without Solr's metrics switched
   * on.
   */
  private static long[] solrMemory(List<String> urls, String collection) throws IOException {
    long bytes = 0;
    long heap = -1;
    for (String url : urls) {
      try (var client = new Http2SolrClient.Builder(url).build()) {
        var status = new ModifiableSolrParams();
        status.set("action", "STATUS");
        NamedList<Object> cores =
            client.request(new GenericSolrRequest(SolrRequest.METHOD.GET, "/admin/cores", status));
        for (var core : (NamedList<?>) cores.get("status")) {
          if (core.getKey().startsWith(collection + "_")) {
            bytes += ((Number) path(core.getValue(), "index", "sizeInBytes")).longValue();
          }
        }
        if (heap < 0) {
          NamedList<Object> system =
              client.request(
                  new GenericSolrRequest(
                      SolrRequest.METHOD.GET, "/admin/info/system", new ModifiableSolrParams()));
          heap = ((Number) path(system, "jvm", "memory", "raw", "used")).longValue();
        }
      } catch (org.apache.solr.client.solrj.SolrServerException e) {
        throw new IOException(e);
      }
    }
    return new long[] {bytes, heap};
  }

  /** The value under {@code keys} in nested named lists or maps. */
  private static Object path(Object node, String... keys) {
    for (String key : keys) {
      node =
          node instanceof NamedList<?> list ? list.get(key) : ((java.util.Map<?, ?>) node).get(key);
    }
    return node;
  }

  /** Heap in use after a GC: what the open index keeps on the heap. */
  static long heapAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Bytes of every file under {@code dir}. */
  static long size(Path dir) throws IOException {
    try (var files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }
}
