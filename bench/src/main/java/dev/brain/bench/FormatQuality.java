package dev.brain.bench;

import dev.brain.bench.BenchData.Corpus;
import dev.brain.index.IndexFields;
import dev.brain.index.VectorFormat;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * What the vector formats cost and lose, beside their latency (which {@link VectorFormatBench}
 * measures): recall@10 of HNSW search against exact search (brute-force dot products over the same
 * raw float vectors) for the SciFact test queries, searching for k = 10 neighbours and for k = 100
 * (the vector lane's depth; the first 10 count), as Lucene's graph search widens its beam with k;
 * the vector files on disk by extension ({@code .vec} raw floats, {@code .veq} quantized vectors,
 * {@code .vex} graph, {@code .vem*} metadata); what Lucene reports it needs off-heap (page cache)
 * for search; and the heap retained by an open reader after one pass of queries.
 *
 * <p>Arguments: the output JSON file, then corpus labels (default {@code 10k 100k}).
 */
public final class FormatQuality {
  private FormatQuality() {}

  static final int K = 10;

  /**
   * The vector lane's default depth: HNSW searched for 100 neighbours, of which the top 10 count.
   */
  static final int DEEP_K = 100;

  private static final PrintStream LOG = System.err;

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    List<String> labels = args.length > 1 ? List.of(args).subList(1, args.length) : null;
    var rows = new ArrayList<Map<String, Object>>();
    List<float[]> queries = new ArrayList<>(VectorFile.read(BenchData.queryVectors()).values());
    for (Corpus corpus : Corpus.values()) {
      if (labels != null && !labels.contains(corpus.label())) {
        continue;
      }
      rows.addAll(measure(corpus, queries));
    }
    var report = new LinkedHashMap<String, Object>();
    report.put("generated_at", Instant.now().toString());
    report.put("queries", queries.size());
    report.put("k", K);
    report.put("results", rows);
    Files.createDirectories(out.toAbsolutePath().getParent());
    SciFact.JSON.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), report);
    LOG.println("wrote " + out);
  }

  private static List<Map<String, Object>> measure(Corpus corpus, List<float[]> queries)
      throws IOException {
    for (VectorFormat f : VectorFormat.values()) {
      BenchData.requireReady(corpus, f);
    }
    List<IndexChunks.Chunk> chunks = IndexChunks.read(BenchData.index(corpus, VectorFormat.FLOAT));
    int[][] exact = exact(chunks, queries);
    LOG.printf(
        "%s: exact top-%d of %d queries over %d chunks%n",
        corpus.label(), K, queries.size(), chunks.size());
    var rows = new ArrayList<Map<String, Object>>();
    Double floatRecall = null;
    for (VectorFormat format : VectorFormat.values()) {
      Path dir = BenchData.index(corpus, format);
      requireSameOrder(chunks, dir);
      Map<String, Object> row = measureFormat(dir, queries, exact);
      double recall = (double) row.get("recall_at_10");
      if (format == VectorFormat.FLOAT) {
        floatRecall = recall;
      }
      var full = new LinkedHashMap<String, Object>();
      full.put("corpus", corpus.label());
      full.put("format", format.name());
      full.put("chunks", chunks.size());
      full.putAll(row);
      full.put("recall_vs_float", floatRecall == null ? null : recall / floatRecall);
      rows.add(full);
      LOG.printf("%s %s: %s%n", corpus.label(), format, full);
    }
    return rows;
  }

  /** Exact top-k doc ids per query. */
  static int[][] exact(List<IndexChunks.Chunk> chunks, List<float[]> queries) {
    List<float[]> vectors = chunks.stream().map(IndexChunks.Chunk::vector).toList();
    int[][] out = new int[queries.size()][];
    for (int q = 0; q < queries.size(); q++) {
      int[] positions = Recall.exactTopK(vectors, queries.get(q), K);
      out[q] = new int[positions.length];
      for (int i = 0; i < positions.length; i++) {
        out[q][i] = chunks.get(positions[i]).doc();
      }
    }
    return out;
  }

  /** The format copies are made from the same source in the same order; check, never assume. */
  private static void requireSameOrder(List<IndexChunks.Chunk> expected, Path dir)
      throws IOException {
    List<IndexChunks.Chunk> actual = IndexChunks.read(dir);
    boolean same = actual.size() == expected.size();
    for (int i = 0; same && i < actual.size(); i++) {
      same =
          actual.get(i).doc() == expected.get(i).doc()
              && actual.get(i).textHash().equals(expected.get(i).textHash());
    }
    if (!same) {
      throw new IllegalStateException(
          dir + " holds other chunks or another order than the float index; rebuild the cache");
    }
  }

  private static Map<String, Object> measureFormat(Path dir, List<float[]> queries, int[][] exact)
      throws IOException {
    long heapBefore = usedHeapAfterGc();
    try (Directory directory = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      var searcher = new IndexSearcher(reader);
      double recallSum = 0;
      double deepRecallSum = 0;
      for (int q = 0; q < queries.size(); q++) {
        recallSum += Recall.recall(topDocs(searcher, queries.get(q), K), exact[q]);
        deepRecallSum += Recall.recall(topDocs(searcher, queries.get(q), DEEP_K), exact[q]);
      }
      long heap = usedHeapAfterGc() - heapBefore;
      var row = new LinkedHashMap<String, Object>();
      row.put("recall_at_10", recallSum / queries.size());
      row.put("recall_at_10_k100", deepRecallSum / queries.size());
      Map<String, Long> files = vectorFiles(dir);
      row.put("vector_files_bytes", files);
      row.put(
          "search_vector_bytes",
          files.getOrDefault("veq", files.getOrDefault("vec", 0L)) + files.getOrDefault("vex", 0L));
      row.put("index_bytes", directorySize(dir));
      row.put("off_heap_bytes", offHeap(reader));
      row.put("heap_bytes", Math.max(0, heap));
      return row;
    }
  }

  /** The first {@value #K} doc ids of an HNSW search for {@code k} neighbours. */
  private static int[] topDocs(IndexSearcher searcher, float[] vector, int k) throws IOException {
    var query = new KnnFloatVectorQuery(IndexFields.VECTOR, vector, k);
    ScoreDoc[] hits = searcher.search(query, k).scoreDocs;
    int[] docs = new int[Math.min(K, hits.length)];
    for (int i = 0; i < docs.length; i++) {
      docs[i] = hits[i].doc;
    }
    return docs;
  }

  /** Sizes of the vector files by extension, summed over segments. */
  static Map<String, Long> vectorFiles(Path dir) throws IOException {
    var sizes = new TreeMap<String, Long>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        String ext = name.substring(name.lastIndexOf('.') + 1);
        if (ext.startsWith("ve")) {
          sizes.merge(ext, Files.size(f), Long::sum);
        }
      }
    }
    return sizes;
  }

  static long directorySize(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      long total = 0;
      for (Path f : files.toList()) {
        total += Files.size(f);
      }
      return total;
    }
  }

  /** What the vectors reader says it keeps off-heap for search, by file extension. */
  private static Map<String, Long> offHeap(DirectoryReader reader) throws IOException {
    var total = new TreeMap<String, Long>();
    for (LeafReaderContext leaf : reader.leaves()) {
      if (leaf.reader() instanceof CodecReader codec) {
        KnnVectorsReader vectors = codec.getVectorReader();
        FieldInfo field = codec.getFieldInfos().fieldInfo(IndexFields.VECTOR);
        if (vectors != null && field != null) {
          vectors.getOffHeapByteSize(field).forEach((k, v) -> total.merge(k, v, Long::sum));
        }
      }
    }
    return total;
  }

  private static long usedHeapAfterGc() {
    var memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }
}
