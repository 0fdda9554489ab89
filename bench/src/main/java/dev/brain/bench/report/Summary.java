package dev.brain.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.bench.report.Results.Run;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/** Renders {@code bench/results/summary.md}: machine, settings, tables and targets. */
final class Summary {

  /** The lanes of {@code SearchBench}, in table order, with how the table names them. */
  static final List<String[]> LANES =
      List.of(
          new String[] {"hybrid", "hybrid (bm25 + vector + exact_tag, RRF, rows)"},
          new String[] {"bm25", "bm25 lane (Retriever)"},
          new String[] {"vector", "vector lane (Retriever)"},
          new String[] {"lucene-bm25", "raw Lucene BM25, top 10"},
          new String[] {"lucene-knn", "raw Lucene kNN, k = 10"},
          new String[] {"lucene-bm25@100", "raw Lucene BM25, top 100"},
          new String[] {"lucene-knn@100", "raw Lucene kNN, k = 100"});

  private final Results results;
  private final Machine machine;
  private final StringBuilder md = new StringBuilder();
  private final List<String> targets = new ArrayList<>();

  Summary(Results results, Machine machine) {
    this.results = results;
    this.machine = machine;
  }

  String markdown() throws IOException {
    List<Run> search = results.group("search");
    List<Run> formats = results.group("formats");
    Optional<JsonNode> quality = results.file("formats-quality.json");
    List<Run> embedding = results.group("embedding");
    List<Run> queryEmbedding = results.group("query-embedding");
    List<Run> indexing = results.group("indexing");
    List<Run> research = results.group("research");
    List<Run> perf = results.group("perf");

    md.append("# brain benchmarks: latest results\n\n");
    machine(firstSettings(perf, search, formats, embedding, indexing, queryEmbedding, research));
    runs();
    OptionalDouble rawLanes = SearchSection.rawLanes(perf);
    var searchSection = new SearchSection(md, this::target, results);
    searchSection.perf(perf, rawLanes);
    searchSection.search(search);
    searchSection.breakdown(results.file("search-breakdown.json"), rawLanes);
    formatsTable(formats, quality, results.file("formats-cold.json"));
    embeddingTable(embedding, queryEmbedding);
    indexingTable(indexing);
    researchTable(research);
    int at = md.indexOf("## Runs");
    md.insert(at, targetsTable());
    return md.toString();
  }

  @SafeVarargs
  private static Optional<Results.Settings> firstSettings(List<Run>... groups) {
    for (List<Run> g : groups) {
      if (!g.isEmpty()) {
        return Optional.of(g.getFirst().settings());
      }
    }
    return Optional.empty();
  }

  private void machine(Optional<Results.Settings> settings) {
    md.append("Rendered ").append(Instant.now().toString(), 0, 16).append("Z. ");
    md.append("Machine: ")
        .append(machine.cpu())
        .append(", ")
        .append(machine.cores())
        .append(" cores (nproc), ")
        .append(String.format(Locale.ROOT, "%.1f GB", machine.memoryBytes() / 1e9))
        .append(" memory, ")
        .append(machine.os());
    settings.ifPresent(
        s -> md.append(", JDK ").append(s.jdk()).append(" (").append(s.vm()).append(")"));
    md.append(
        ". The machine is shared with other builds: the load average at the start and end of each"
            + " run is listed below, and absolute figures move with it (by ±30% or more between"
            + " runs); ratios measured in the same run are the steadier figures.\n\n");
  }

  private void runs() throws IOException {
    md.append("## Runs\n\n| group | finished (UTC) | load before → after | settings | command |\n");
    md.append("|---|---|---|---|---|\n");
    for (String group :
        List.of(
            "perf",
            "search",
            "search-breakdown",
            "formats",
            "formats-quality",
            "formats-cold",
            "embedding",
            "query-embedding",
            "indexing",
            "research")) {
      Optional<JsonNode> meta = results.file(group + ".meta.json");
      if (meta.isEmpty()) {
        continue;
      }
      List<Run> runs =
          group.endsWith("-quality") || group.endsWith("-breakdown") || group.endsWith("-cold")
              ? List.of()
              : results.group(group);
      String settings = runs.isEmpty() ? "-" : runs.getFirst().settings().describe();
      JsonNode m = meta.get();
      md.append(
          String.format(
              "| %s | %s | %s → %s | %s | `%s` |%n",
              group,
              m.path("finished_at").asText(),
              m.path("load_before").asText(),
              m.path("load_after").asText(),
              settings,
              // A pipe inside a table cell ends the cell, even in code: escape it.
              m.path("command").asText().strip().replace("|", "\\|")));
    }
    md.append("\n");
  }

  private void formatsTable(
      List<Run> formats, Optional<JsonNode> quality, Optional<JsonNode> cold) {
    new FormatsSection(md, this::target).write(formats, quality, cold);
  }

  private void embeddingTable(List<Run> embedding, List<Run> queryEmbedding) {
    if (embedding.isEmpty() && queryEmbedding.isEmpty()) {
      return;
    }
    md.append("## Embedding (bge-small-en-v1.5, int8 ONNX, 2 intra-op threads)\n\n");
    if (!embedding.isEmpty()) {
      md.append(
          "| batch size | bucketed passages/s | tokens/s | padding | unbucketed passages/s |"
              + " tokens/s | padding | bucketed / unbucketed |\n|---|---|---|---|---|---|---|---|\n");
      for (Run r : embedding) {
        EmbeddingRates e = EmbeddingRates.of(r);
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %.1f | %,.0f | %.0f%% | %.1f | %,.0f | %.0f%% | %.2fx |%n",
                r.param("batchSize"),
                e.bucketedPassages(),
                e.bucketedTokens(),
                100 * e.bucketedPadding(),
                e.unbucketedPassages(),
                e.unbucketedTokens(),
                100 * e.unbucketedPadding(),
                e.bucketedPassages() / e.unbucketedPassages()));
      }
      md.append(
          "\n64 SciFact chunks per operation, both sides in the same operation. Unbucketed embeds"
              + " input-order batches (each padded to its longest passage); bucketed lets the"
              + " embedder sort all 64 by length first. Padding = share of the tokens the model runs"
              + " that are padding.\n\n");
    }
    for (Run r : queryEmbedding) {
      md.append(
          String.format(
              Locale.ROOT,
              "One query embedding (SciFact test queries): p50 %s ms, p99 %s ms.%n%n",
              ms(r.percentile("50.0")),
              ms(r.percentile("99.0"))));
    }
  }

  private void indexingTable(List<Run> indexing) {
    for (Run r : indexing) {
      double chunks = r.secondary().getOrDefault("chunks", Double.NaN);
      double pipeline = r.secondary().getOrDefault("pipelineMillis", Double.NaN) / 1000;
      double raw = r.secondary().getOrDefault("rawMillis", Double.NaN) / 1000;
      double ratio = (chunks / pipeline) / (chunks / raw);
      md.append("## Indexing (sync of SciFact records vs the bare embedder, interleaved)\n\n");
      md.append(
          "| records per op | chunks | pipeline chunks/s | raw embedder chunks/s | pipeline / raw |\n");
      md.append("|---|---|---|---|---|\n");
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %.0f | %.2f | %.2f | %.1f%% |%n%n",
              r.param("records"),
              chunks,
              chunks / pipeline,
              chunks / raw,
              100 * ratio));
      target(
          "indexing pipeline vs raw embedder",
          ">= 85%",
          String.format(Locale.ROOT, "%.1f%%", 100 * ratio),
          ratio >= 0.85);
    }
  }

  private void researchTable(List<Run> research) throws IOException {
    if (research.isEmpty()) {
      target("research pack p50 at 100k (planner off)", "<= 15 ms", "not measured yet", false);
      return;
    }
    md.append("## Research pack (planner off, retrieval only)\n\n");
    md.append("| corpus | p50 ms | p90 ms | p99 ms | samples |\n|---|---|---|---|---|\n");
    for (Run r : research) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %,d |%n",
              r.param("corpus"),
              ms(r.percentile("50.0")),
              ms(r.percentile("90.0")),
              ms(r.percentile("99.0")),
              r.samples()));
      if (r.param("corpus").equals("100k")) {
        double p50 = r.percentile("50.0");
        target(
            "research pack p50 at 100k (planner off), " + runOf(results, "research"),
            "<= 15 ms",
            ms(p50) + " ms",
            p50 <= 15_000);
      }
    }
    md.append("\n");
  }

  /**
   * Which run a target's figure comes from: its group and when it finished. The same target is
   * measured by more than one group (search and perf at other times and loads), so a figure quoted
   * elsewhere must say which.
   */
  static String runOf(Results results, String group) throws IOException {
    String finished =
        results.file(group + ".meta.json").map(m -> m.path("finished_at").asText("")).orElse("");
    return "`" + group + "` run" + (finished.isEmpty() ? "" : " of " + finished);
  }

  private void target(String what, String goal, String measured, boolean met) {
    targets.add(
        String.format("| %s | %s | %s | %s |%n", what, goal, measured, met ? "yes" : "**no**"));
  }

  private String targetsTable() {
    if (targets.isEmpty()) {
      return "";
    }
    var sb =
        new StringBuilder("## Targets\n\n| target | goal | measured | met |\n|---|---|---|---|\n");
    targets.forEach(sb::append);
    return sb.append("\n").toString();
  }

  /** Rates of one {@code EmbeddingBench} run, from its summed secondary metrics. */
  record EmbeddingRates(
      double bucketedPassages,
      double bucketedTokens,
      double bucketedPadding,
      double unbucketedPassages,
      double unbucketedTokens,
      double unbucketedPadding) {

    static EmbeddingRates of(Run r) {
      var m = r.secondary();
      double passages = m.getOrDefault("passages", Double.NaN);
      double tokens = m.getOrDefault("tokens", Double.NaN);
      double b = m.getOrDefault("bucketedMillis", Double.NaN) / 1000;
      double u = m.getOrDefault("unbucketedMillis", Double.NaN) / 1000;
      double pb = m.getOrDefault("paddedBucketed", Double.NaN);
      double pu = m.getOrDefault("paddedUnbucketed", Double.NaN);
      return new EmbeddingRates(
          passages / b, tokens / b, 1 - tokens / pb, passages / u, tokens / u, 1 - tokens / pu);
    }
  }

  static Optional<Run> find(List<Run> runs, String k1, String v1, String k2, String v2) {
    return runs.stream().filter(r -> r.param(k1).equals(v1) && r.param(k2).equals(v2)).findFirst();
  }

  /** Microseconds as milliseconds, 2 significant decimals for small values. */
  static String ms(double micros) {
    double ms = micros / 1000;
    return String.format(Locale.ROOT, ms < 1 ? "%.3f" : ms < 10 ? "%.2f" : "%.1f", ms);
  }

  static String mb(double bytes) {
    return Double.isNaN(bytes) ? "-" : String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
  }
}
