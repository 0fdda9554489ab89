package dev.brain.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.index.SyncListener;
import dev.brain.index.SyncReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tuning runner on BEIR SciFact (not a test: surefire never runs it). Indexes the corpus once into
 * a cache folder, then reports nDCG@10 per lane and fusion setting.
 *
 * <pre>
 * java -cp ... dev.brain.retrieval.SciFactBench index /work/shared/datasets/scifact /tmp/brain-scifact
 * java -cp ... dev.brain.retrieval.SciFactBench eval  /work/shared/datasets/scifact /tmp/brain-scifact
 * </pre>
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
      default -> throw new IllegalArgumentException("index | eval");
    }
  }

  static BrainIndex open(Path cache) throws IOException {
    return BrainIndex.open(IndexConfig.defaults(cache));
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
