package dev.brain.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.index.SyncListener;
import dev.brain.index.SyncReport;
import dev.brain.index.VectorFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SlowCodecReaderWrapper;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.quantization.QuantizedByteVectorValues.ScalarEncoding;

/**
 * Tuning runner on BEIR SciFact (not a test: surefire never runs it). Indexes the corpus once into
 * a cache folder, then reports nDCG@10 per lane and fusion setting.
 *
 * <pre>
 * java -cp ... dev.brain.retrieval.SciFactBench index /work/shared/datasets/scifact /tmp/brain-scifact
 * java -cp ... dev.brain.retrieval.SciFactBench eval  /work/shared/datasets/scifact /tmp/brain-scifact [defaults|bm25|fusion|recall|recall-vs FLOAT_CACHE]
 * java -cp ... dev.brain.retrieval.SciFactBench quantize /work/shared/datasets/scifact /tmp/brain-scifact /tmp/brain-scifact-int8 INT8
 * </pre>
 *
 * <p>Run it with a Java argument file ({@code java @args.txt ...}): ONNX Runtime 1.29 crashes when
 * the process command line is longer than about 4 KB, which a Maven test classpath is.
 */
final class SciFactBench {
  private SciFactBench() {}

  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    Path dataset = Path.of(args[1]);
    Path cache = Path.of(args[2]);
    switch (args[0]) {
      case "index" -> index(dataset, cache);
      case "eval" -> SciFactEval.run(dataset, cache, List.of(args).subList(3, args.length));
      case "quantize" -> quantize(cache, Path.of(args[3]), VectorFormat.valueOf(args[4]));
      case "variants" -> SciFactVariants.run(dataset, cache);
      default -> throw new IllegalArgumentException("index | eval | quantize | variants");
    }
  }

  static BrainIndex open(Path cache) throws IOException {
    IndexConfig config = IndexConfig.defaults(cache);
    VectorFormat format = storedFormat(config.directory());
    return BrainIndex.openReadOnly(config.withVectorFormat(format), null);
  }

  private static VectorFormat storedFormat(Path indexDir) throws IOException {
    try (Directory dir = FSDirectory.open(indexDir)) {
      String format = SegmentInfos.readLatestCommit(dir).getUserData().get("brain.vector_format");
      return format == null ? VectorFormat.FLOAT : VectorFormat.valueOf(format);
    }
  }

  /**
   * Copies the cached index into {@code target} with another vector format, re-encoding (and
   * re-building the HNSW graphs of) the stored float vectors instead of embedding again. The copy
   * carries the same brain metadata with the new format, so {@link BrainIndex} opens it.
   */
  private static void quantize(Path cache, Path target, VectorFormat format) throws IOException {
    Path from = IndexConfig.defaults(cache).directory();
    Path to = IndexConfig.defaults(target).directory();
    Files.createDirectories(to);
    KnnVectorsFormat vectors =
        switch (format) {
          case FLOAT -> new Lucene99HnswVectorsFormat();
          case INT8 ->
              new Lucene104HnswScalarQuantizedVectorsFormat(ScalarEncoding.fromNumBits(8), 16, 100);
          case INT4 ->
              new Lucene104HnswScalarQuantizedVectorsFormat(ScalarEncoding.fromNumBits(4), 16, 100);
        };
    long t0 = System.nanoTime();
    try (Directory source = FSDirectory.open(from);
        DirectoryReader reader = DirectoryReader.open(source);
        Directory dest = FSDirectory.open(to)) {
      var config =
          new IndexWriterConfig()
              .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
              .setCodec(
                  new Lucene104Codec() {
                    @Override
                    public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                      return vectors;
                    }
                  });
      try (IndexWriter writer = new IndexWriter(dest, config)) {
        var readers = new ArrayList<CodecReader>();
        for (LeafReaderContext leaf : reader.leaves()) {
          readers.add(SlowCodecReaderWrapper.wrap(leaf.reader()));
        }
        writer.addIndexes(readers.toArray(CodecReader[]::new));
        var data = new HashMap<>(reader.getIndexCommit().getUserData());
        data.put("brain.vector_format", format.name());
        writer.setLiveCommitData(data.entrySet());
        writer.commit();
      }
    }
    System.err.printf("re-encoded as %s in %.1f s%n", format, (System.nanoTime() - t0) / 1e9);
  }

  private static void index(Path dataset, Path cache) throws IOException {
    Files.createDirectories(cache);
    long t0 = System.nanoTime();
    try (BrainIndex index = open(cache)) {
      SyncReport report =
          index.sync(
              List.of(dataset.resolve("corpus.jsonl")),
              new SyncListener() {
                long embedded;

                @Override
                public void chunksEmbedded(int count) {
                  embedded += count;
                  if (embedded % 640 < count) {
                    System.err.printf(
                        "embedded %d chunks, %.0f s%n", embedded, (System.nanoTime() - t0) / 1e9);
                  }
                }
              });
      System.err.println(report);
      System.err.println(index.stats());
    }
  }

  /** Test query ids with their relevant doc ids and grades, from qrels/test.tsv. */
  static Map<String, Map<String, Integer>> qrels(Path dataset) throws IOException {
    var qrels = new LinkedHashMap<String, Map<String, Integer>>();
    for (String line : Files.readAllLines(dataset.resolve("qrels/test.tsv"))) {
      String[] f = line.split("\t");
      if (f.length < 3 || f[0].equals("query-id")) {
        continue;
      }
      qrels.computeIfAbsent(f[0], k -> new HashMap<>()).put(f[1], Integer.parseInt(f[2].strip()));
    }
    return qrels;
  }

  /** Query id -> text for the ids in {@code wanted}, in qrels order. */
  static Map<String, String> queries(Path dataset, Iterable<String> wanted) throws IOException {
    var all = new HashMap<String, String>();
    for (String line : Files.readAllLines(dataset.resolve("queries.jsonl"))) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode n = JSON.readTree(line);
      all.put(n.get("_id").asText(), n.get("text").asText());
    }
    var out = new LinkedHashMap<String, String>();
    for (String id : wanted) {
      out.put(id, all.get(id));
    }
    return out;
  }

  /** nDCG@k of a ranked list of doc ids with graded gains (BEIR/trec_eval convention). */
  static double ndcg(List<String> ranked, Map<String, Integer> relevant, int k) {
    double dcg = 0;
    for (int i = 0; i < Math.min(k, ranked.size()); i++) {
      int g = relevant.getOrDefault(ranked.get(i), 0);
      dcg += g / (Math.log(i + 2) / Math.log(2));
    }
    var gains = new ArrayList<>(relevant.values());
    gains.sort((a, b) -> b - a);
    double ideal = 0;
    for (int i = 0; i < Math.min(k, gains.size()); i++) {
      ideal += gains.get(i) / (Math.log(i + 2) / Math.log(2));
    }
    return ideal == 0 ? 0 : dcg / ideal;
  }

  /** Recall@k: relevant docs (grade >= 1) retrieved in the top k over all relevant. */
  static double recall(List<String> ranked, Map<String, Integer> relevant, int k) {
    long rel = relevant.values().stream().filter(g -> g > 0).count();
    if (rel == 0) {
      return 0;
    }
    long hit =
        ranked.subList(0, Math.min(k, ranked.size())).stream()
            .filter(d -> relevant.getOrDefault(d, 0) > 0)
            .count();
    return (double) hit / rel;
  }
}
