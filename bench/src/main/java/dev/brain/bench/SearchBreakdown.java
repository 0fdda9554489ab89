package dev.brain.bench;

import dev.brain.bench.BenchData.Corpus;
import dev.brain.index.VectorFormat;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.Retriever;
import dev.brain.retrieval.SearchOptions;
import dev.brain.retrieval.SearchResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a search's time goes, from the stage timings every {@code SearchResult} carries ({@code
 * timings_ms}: each lane, {@code fusion}, {@code rows} (reading records, spans, excerpts), {@code
 * total}). Not a JMH benchmark: it runs the SciFact test queries {@value #ROUNDS} times after
 * {@value #WARMUP_ROUNDS} warm-up rounds and reports the median of each stage, so the search
 * table's totals can be split. Medians of stages do not add up to the median total; the total also
 * holds query parsing and searcher handling.
 *
 * <p>Arguments: the output JSON file, then corpus labels (default {@code 10k 100k}).
 */
public final class SearchBreakdown {
  private SearchBreakdown() {}

  static final int ROUNDS = 3;
  static final int WARMUP_ROUNDS = 5;

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]);
    List<String> labels = args.length > 1 ? List.of(args).subList(1, args.length) : null;
    var rows = new ArrayList<Map<String, Object>>();
    for (Corpus corpus : Corpus.values()) {
      if (labels != null && !labels.contains(corpus.label())) {
        continue;
      }
      try (SearchState state = SearchState.open(corpus, VectorFormat.FLOAT)) {
        var retriever = new Retriever(state.index);
        for (String lane : List.of("bm25", "vector", "hybrid")) {
          rows.add(measure(corpus, lane, retriever, state));
        }
      }
    }
    var report = new LinkedHashMap<String, Object>();
    report.put("generated_at", Instant.now().toString());
    report.put("rounds", ROUNDS);
    report.put("results", rows);
    Files.createDirectories(out.toAbsolutePath().getParent());
    SciFact.JSON.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), report);
    System.err.println("wrote " + out);
  }

  private static Map<String, Object> measure(
      Corpus corpus, String lane, Retriever retriever, SearchState state) throws Exception {
    SearchOptions options =
        switch (lane) {
          case "bm25" -> SearchOptions.builder().lanes(Lane.BM25).build();
          case "vector" -> SearchOptions.builder().lanes(Lane.VECTOR).build();
          default -> SearchOptions.defaults();
        };
    var stages = new LinkedHashMap<String, List<Double>>();
    for (int round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      for (String query : state.queries) {
        long t0 = System.nanoTime();
        SearchResult result = retriever.search(query, options);
        double wall = (System.nanoTime() - t0) / 1e6;
        if (round >= WARMUP_ROUNDS) {
          stages.computeIfAbsent("wall", x -> new ArrayList<>()).add(wall);
          result
              .timingsMs()
              .forEach((k, v) -> stages.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
        }
      }
    }
    var medians = new LinkedHashMap<String, Double>();
    stages.forEach((k, v) -> medians.put(k, median(v)));
    var row = new LinkedHashMap<String, Object>();
    row.put("corpus", corpus.label());
    row.put("lane", lane);
    row.put("searches", stages.getOrDefault("total", List.of()).size());
    row.put("median_ms", medians);
    System.err.printf("%s %s: %s%n", corpus.label(), lane, medians);
    return row;
  }

  static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n == 0
        ? Double.NaN
        : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
