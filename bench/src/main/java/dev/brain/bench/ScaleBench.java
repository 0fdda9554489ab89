package dev.brain.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.index.SyncListener;
import dev.brain.research.Researcher;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.retrieval.Retriever;
import dev.brain.retrieval.SearchOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scale curve of the embedded index (not JMH: one corpus per size is built in the run, and the
 * searches are timed after a time-based warm-up). For each size: {@link SyntheticCorpus} records
 * (one chunk each) with {@link SyntheticEmbedder} vectors (random unit vectors seeded by the text,
 * so no model runs) are written into a fresh index through {@link BrainIndex#put} in batches; then
 * hybrid searches (the default lanes, 10 rows with excerpts) and research packs (deterministic
 * planner, no model) are timed, and the index folder's size and the heap in use after a GC with the
 * index open are read.
 *
 * <p>Usage: {@code ScaleBench --sizes 10000,100000,1000000 --dir DIR --json FILE}. Prints one
 * Markdown table row per size; the JSON holds every figure.
 */
public final class ScaleBench {
  private ScaleBench() {}

  private static final int BATCH = 20_000;
  private static final long WARMUP_NANOS = 40_000_000_000L;
  private static final int SEARCHES = 500;
  private static final int PACKS = 200;

  static final String HEADER =
      "| chunks | build s | chunks/s | hybrid p50 ms | hybrid p99 ms | pack p50 ms | pack p99 ms |"
          + " index MB | heap MB |\n|---|---|---|---|---|---|---|---|---|";

  public static void main(String[] args) throws Exception {
    List<Integer> sizes = List.of(10_000);
    Path dir = null;
    Path json = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--sizes" ->
            sizes = Arrays.stream(args[++i].split(",")).map(Integer::parseInt).toList();
        case "--dir" -> dir = Path.of(args[++i]);
        case "--json" -> json = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (dir == null) {
      dir = Files.createTempDirectory("brain-scale-bench");
    }
    System.out.println(HEADER);
    var results = new ArrayList<Map<String, Object>>();
    for (int size : sizes) {
      Map<String, Object> row = run(size, dir.resolve("scale-" + size));
      results.add(row);
      System.out.printf(
          Locale.ROOT,
          "| %,d | %.0f | %,.0f | %.2f | %.2f | %.2f | %.2f | %,.0f | %,.0f |%n",
          (long) row.get("chunks"),
          row.get("build_seconds"),
          row.get("chunks_per_second"),
          row.get("hybrid_p50_ms"),
          row.get("hybrid_p99_ms"),
          row.get("pack_p50_ms"),
          row.get("pack_p99_ms"),
          (long) row.get("index_bytes") / 1048576.0,
          (long) row.get("heap_bytes") / 1048576.0);
      System.out.flush();
      if (json != null) {
        var out = new LinkedHashMap<String, Object>();
        out.put("generated_at", Instant.now().toString());
        out.put("results", results);
        new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .writeValue(json.toFile(), out);
      }
    }
  }

  private static Map<String, Object> run(int size, Path dir) throws IOException {
    Reencode.deleteTree(dir);
    IndexConfig config = IndexConfig.defaults(dir);
    var row = new LinkedHashMap<String, Object>();
    try (BrainIndex index = BrainIndex.open(config, new SyntheticEmbedder(config.model()))) {
      var corpus = new SyntheticCorpus();
      long t0 = System.nanoTime();
      for (int done = 0; done < size; done += BATCH) {
        index.put(corpus.next(Math.min(BATCH, size - done)), SyncListener.NONE);
        System.err.printf(
            Locale.ROOT,
            "scale: %d/%d written after %.0f s%n",
            Math.min(size, done + BATCH),
            size,
            (System.nanoTime() - t0) / 1e9);
      }
      double build = (System.nanoTime() - t0) / 1e9;
      long chunks = index.stats().chunks();
      var retriever = new Retriever(index);
      List<String> queries = SyntheticCorpus.queries(1_000);
      SearchOptions search = SearchOptions.defaults();
      double[] hybrid = timed(queries, SEARCHES, q -> retriever.search(q, search));
      var researcher = new Researcher(retriever);
      ResearchOptions pack = ResearchOptions.defaults();
      double[] packs = timed(queries, PACKS, q -> researcher.pack(q, pack));
      row.put("chunks", chunks);
      row.put("records", (long) size);
      row.put("build_seconds", build);
      row.put("chunks_per_second", chunks / build);
      row.put("hybrid_searches", SEARCHES);
      row.put("hybrid_p50_ms", hybrid[(int) (SEARCHES * 0.50)]);
      row.put("hybrid_p99_ms", hybrid[(int) (SEARCHES * 0.99)]);
      row.put("packs", PACKS);
      row.put("pack_p50_ms", packs[(int) (PACKS * 0.50)]);
      row.put("pack_p99_ms", packs[(int) (PACKS * 0.99)]);
      row.put("index_bytes", BackendBench.size(dir));
      row.put("heap_bytes", BackendBench.heapAfterGc());
    }
    return row;
  }

  /** One timed call. */
  @FunctionalInterface
  private interface Call {
    void run(String query) throws IOException;
  }

  /**
   * Runs calls over the queries in turn for the warm-up time (the JIT needs tens of seconds on this
   * code), then {@code n} timed ones; their sorted wall times in milliseconds.
   */
  private static double[] timed(List<String> queries, int n, Call call) throws IOException {
    int next = 0;
    long warmEnd = System.nanoTime() + WARMUP_NANOS;
    while (System.nanoTime() < warmEnd) {
      call.run(queries.get(next++ % queries.size()));
    }
    var millis = new double[n];
    for (int i = 0; i < n; i++) {
      String q = queries.get(next++ % queries.size());
      long t0 = System.nanoTime();
      call.run(q);
      millis[i] = (System.nanoTime() - t0) / 1e6;
    }
    Arrays.sort(millis);
    return millis;
  }
}
