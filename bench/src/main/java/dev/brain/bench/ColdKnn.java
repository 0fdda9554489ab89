package dev.brain.bench;

import dev.brain.bench.BenchData.Corpus;
import dev.brain.index.IndexFields;
import dev.brain.index.VectorFormat;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * HNSW search with the vectors on disk instead of in memory: what a quantized format is for. Warm
 * (the page cache holding the vector files, as {@link VectorFormatBench} measures) float search
 * wins on this machine; once the vectors no longer fit in memory each search reads them from
 * storage, and the format that stores less reads less. Each sample drops the page cache (Linux,
 * root: {@code /proc/sys/vm/drop_caches}), opens the index afresh and runs one {@code
 * KnnFloatVectorQuery} for k = 100 (the vector lane's depth), timing the search alone; then it asks
 * util-linux {@code fincore} how much of the vector files ({@code .vec}, {@code .veq}, {@code
 * .vex}) the open and the search brought into the page cache. Formats take turns query by query, so
 * a change of load hits all of them alike. How much one page fault reads depends on the device's
 * read-ahead ({@code /sys/block/DEV/queue/read_ahead_kb}); the report gives it.
 *
 * <p>Arguments: the output JSON file, then the number of queries (default 40) and corpus labels
 * (default {@code 100k}).
 */
public final class ColdKnn {
  private ColdKnn() {}

  static final int K = 100;

  private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");
  private static final PrintStream LOG = System.err;

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    List<String> labels = args.length > 2 ? List.of(args).subList(2, args.length) : List.of("100k");
    if (!Files.isWritable(DROP_CACHES)) {
      LOG.println(
          "cold kNN: skipped: dropping the page cache needs Linux and root ("
              + DROP_CACHES
              + " not writable)");
      System.exit(2);
    }
    List<float[]> queries = new ArrayList<>(VectorFile.read(BenchData.queryVectors()).values());
    queries = queries.subList(0, Math.min(n, queries.size()));
    var rows = new ArrayList<Map<String, Object>>();
    for (String label : labels) {
      rows.addAll(measure(Corpus.ofLabel(label), queries));
    }
    var report = new LinkedHashMap<String, Object>();
    report.put("generated_at", Instant.now().toString());
    report.put("queries", queries.size());
    report.put("k", K);
    report.put("read_ahead_kb", readAhead());
    report.put("results", rows);
    Files.createDirectories(out.toAbsolutePath().getParent());
    SciFact.JSON.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), report);
    LOG.println("wrote " + out);
  }

  private static List<Map<String, Object>> measure(Corpus corpus, List<float[]> queries)
      throws IOException, InterruptedException {
    VectorFormat[] formats = VectorFormat.values();
    for (VectorFormat f : formats) {
      BenchData.requireReady(corpus, f);
    }
    double[][] millis = new double[formats.length][queries.size()];
    long[][] bytes = new long[formats.length][queries.size()];
    for (int q = 0; q < queries.size(); q++) {
      for (int i = 0; i < formats.length; i++) {
        int f = (q + i) % formats.length; // each format first as often as the others
        Sample s = coldSearch(BenchData.index(corpus, formats[f]), queries.get(q));
        millis[f][q] = s.millis();
        bytes[f][q] = s.vectorBytesCached();
      }
    }
    var rows = new ArrayList<Map<String, Object>>();
    for (int f = 0; f < formats.length; f++) {
      var row = new LinkedHashMap<String, Object>();
      row.put("corpus", corpus.label());
      row.put("format", formats[f].name());
      row.put("p50_ms", percentile(millis[f], 0.5));
      row.put("p90_ms", percentile(millis[f], 0.9));
      row.put("mean_ms", Arrays.stream(millis[f]).average().orElse(0));
      row.put(
          "mean_vector_bytes_cached",
          (long) Arrays.stream(bytes[f]).filter(b -> b >= 0).average().orElse(-1));
      row.put("vector_files_bytes", FormatQuality.vectorFiles(BenchData.index(corpus, formats[f])));
      rows.add(row);
      LOG.printf("%s %s cold: %s%n", corpus.label(), formats[f], row);
    }
    return rows;
  }

  private record Sample(double millis, long vectorBytesCached) {}

  /** One search on a freshly opened index after the page cache was dropped. */
  private static Sample coldSearch(Path dir, float[] vector)
      throws IOException, InterruptedException {
    dropPageCache();
    double ms;
    try (Directory directory = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      var searcher = new IndexSearcher(reader);
      var query = new KnnFloatVectorQuery(IndexFields.VECTOR, vector, K);
      long t0 = System.nanoTime();
      int hits = searcher.search(query, K).scoreDocs.length;
      ms = (System.nanoTime() - t0) / 1e6;
      if (hits == 0) {
        throw new IllegalStateException(dir + ": a vector search found nothing");
      }
    }
    return new Sample(ms, cachedVectorBytes(dir));
  }

  /** Bytes of the vector files in the page cache, by {@code fincore}; -1 without it. */
  private static long cachedVectorBytes(Path dir) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(List.of("fincore", "--bytes", "--noheadings", "--raw", "--output", "RES"));
    try (var files = Files.list(dir)) {
      files
          .map(Path::toString)
          .filter(f -> f.endsWith(".vec") || f.endsWith(".veq") || f.endsWith(".vex"))
          .forEach(command::add);
    }
    Process p;
    try {
      p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    } catch (IOException noFincore) {
      return -1;
    }
    long total = 0;
    for (String line : new String(p.getInputStream().readAllBytes()).lines().toList()) {
      total += Long.parseLong(line.strip());
    }
    return p.waitFor() == 0 ? total : -1;
  }

  private static void dropPageCache() throws IOException, InterruptedException {
    Process sync = new ProcessBuilder("sync").inheritIO().start();
    if (sync.waitFor() != 0) {
      throw new IOException("sync failed");
    }
    Files.writeString(DROP_CACHES, "1");
  }

  /** The read-ahead of each disk ({@code /sys/block}), loop and RAM devices left out. */
  private static Map<String, Integer> readAhead() throws IOException {
    var out = new java.util.TreeMap<String, Integer>();
    Path block = Path.of("/sys/block");
    if (!Files.isDirectory(block)) {
      return out;
    }
    try (var devices = Files.list(block)) {
      for (Path dev : devices.toList()) {
        String name = dev.getFileName().toString();
        Path kb = dev.resolve("queue/read_ahead_kb");
        if (!name.matches("(loop|zram|ram).*") && Files.isReadable(kb)) {
          out.put(name, Integer.parseInt(Files.readString(kb).strip()));
        }
      }
    }
    return out;
  }

  private static double percentile(double[] values, double p) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, (int) Math.floor(p * sorted.length))];
  }
}
