package dev.brain.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.bench.report.Results.Run;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The search sections of the summary: hybrid against raw Lucene in the {@code perf} run, the
 * latency of each lane, where a hybrid search's time goes, and their targets.
 */
final class SearchSection {

  private final StringBuilder md;
  private final FormatsSection.Targets targets;
  private final Results results;

  SearchSection(StringBuilder md, FormatsSection.Targets targets, Results results) {
    this.md = md;
    this.targets = targets;
    this.results = results;
  }

  /**
   * Issue 32's two targets measured in one JMH run at 100k: hybrid search against raw Lucene at the
   * lanes' depth ({@code rawLanes}, present when both raw runs are), and the research pack.
   */
  void perf(List<Run> perf, OptionalDouble rawLanes) {
    Optional<Run> hybrid = Summary.find(perf, "corpus", "100k", "lane", "hybrid");
    Optional<Run> bm25 = Summary.find(perf, "corpus", "100k", "lane", "lucene-bm25@100");
    Optional<Run> knn = Summary.find(perf, "corpus", "100k", "lane", "lucene-knn@100");
    Optional<Run> pack =
        perf.stream()
            .filter(r -> r.name().startsWith("ResearchBench.") && r.param("corpus").equals("100k"))
            .findFirst();
    if (hybrid.isEmpty() || rawLanes.isEmpty() || pack.isEmpty()) {
      return;
    }
    md.append("## Hybrid vs raw lanes, and the research pack: one run at 100k (`perf`)\n\n");
    md.append("| what | p50 ms | p90 ms | p99 ms | samples |\n|---|---|---|---|---|\n");
    for (var row :
        List.of(
            new Object[] {"hybrid (Retriever.search, defaults)", hybrid.get()},
            new Object[] {"raw Lucene BM25, top 100", bm25.get()},
            new Object[] {"raw Lucene kNN, k = 100", knn.get()},
            new Object[] {"research pack (planner off)", pack.get()})) {
      Run r = (Run) row[1];
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %,d |%n",
              row[0],
              Summary.ms(r.percentile("50.0")),
              Summary.ms(r.percentile("90.0")),
              Summary.ms(r.percentile("99.0")),
              r.samples()));
    }
    double p50 = hybrid.get().percentile("50.0");
    double raw = rawLanes.getAsDouble();
    double ratio = p50 / raw;
    md.append(
        String.format(
            Locale.ROOT,
            "%nHybrid / (raw BM25 top 100 + raw kNN k = 100) = %.2fx (%s ms vs %s ms).%n%n",
            ratio,
            Summary.ms(p50),
            Summary.ms(raw)));
    targets.add(
        "hybrid p50 / (raw BM25@100 p50 + raw kNN@100 p50), 100k, one run (`perf`)",
        "<= 1.5x",
        String.format(
            Locale.ROOT, "%.2fx (%s ms vs %s ms)", ratio, Summary.ms(p50), Summary.ms(raw)),
        ratio <= 1.5);
    double packP50 = pack.get().percentile("50.0");
    targets.add(
        "research pack p50 at 100k (planner off), same run (`perf`)",
        "<= 15 ms",
        Summary.ms(packP50) + " ms",
        packP50 <= 15_000);
  }

  void search(List<Run> search) throws IOException {
    if (search.isEmpty()) {
      return;
    }
    md.append(
        "## Search latency (SciFact test queries, float vectors, query vectors precomputed)\n\n");
    md.append("| corpus | what | p50 ms | p90 ms | p99 ms | mean ms | samples |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    for (String corpus : List.of("10k", "100k")) {
      for (String[] lane : Summary.LANES) {
        Summary.find(search, "corpus", corpus, "lane", lane[0])
            .ifPresent(
                r ->
                    md.append(
                        String.format(
                            Locale.ROOT,
                            "| %s | %s | %s | %s | %s | %s | %,d |%n",
                            corpus,
                            lane[1],
                            Summary.ms(r.percentile("50.0")),
                            Summary.ms(r.percentile("90.0")),
                            Summary.ms(r.percentile("99.0")),
                            Summary.ms(r.score()),
                            r.samples())));
      }
    }
    md.append("\n");
    searchTargets(search);
  }

  private void searchTargets(List<Run> search) throws IOException {
    Optional<Run> hybrid = Summary.find(search, "corpus", "100k", "lane", "hybrid");
    Optional<Run> bm25 = Summary.find(search, "corpus", "100k", "lane", "lucene-bm25");
    Optional<Run> knn = Summary.find(search, "corpus", "100k", "lane", "lucene-knn");
    if (hybrid.isEmpty()) {
      return;
    }
    double p50 = hybrid.get().percentile("50.0");
    targets.add(
        "hybrid search p50 at 100k chunks, " + Summary.runOf(results, "search"),
        "< 10 ms",
        Summary.ms(p50) + " ms",
        p50 < 10_000);
    if (bm25.isPresent() && knn.isPresent()) {
      double raw = bm25.get().percentile("50.0") + knn.get().percentile("50.0");
      md.append(
          String.format(
              Locale.ROOT,
              "Against raw Lucene top 10 (BM25 + kNN k = 10: %s ms at 100k) hybrid is %.1fx.%n%n",
              Summary.ms(raw),
              p50 / raw));
    }
    Optional<Run> bm25d = Summary.find(search, "corpus", "100k", "lane", "lucene-bm25@100");
    Optional<Run> knnd = Summary.find(search, "corpus", "100k", "lane", "lucene-knn@100");
    if (bm25d.isPresent() && knnd.isPresent()) {
      double raw = bm25d.get().percentile("50.0") + knnd.get().percentile("50.0");
      md.append(
          String.format(
              Locale.ROOT,
              "At the lanes' own depth (100 hits each) raw Lucene takes %s ms at 100k, so hybrid is"
                  + " %.1fx that.%n%n",
              Summary.ms(raw),
              p50 / raw));
    }
  }

  /** The perf run's raw BM25 top 100 + raw kNN k = 100 p50, in µs, when it ran. */
  static OptionalDouble rawLanes(List<Run> perf) {
    Optional<Run> bm25 = Summary.find(perf, "corpus", "100k", "lane", "lucene-bm25@100");
    Optional<Run> knn = Summary.find(perf, "corpus", "100k", "lane", "lucene-knn@100");
    return bm25.isPresent() && knn.isPresent()
        ? OptionalDouble.of(bm25.get().percentile("50.0") + knn.get().percentile("50.0"))
        : OptionalDouble.empty();
  }

  /**
   * The stage medians; with the perf run's raw lanes, about the least hybrid / raw lanes could read
   * with rows built for free: the hybrid search's lanes and fusion alone (a sum of medians, from
   * another run than perf's).
   */
  void breakdown(Optional<JsonNode> breakdown, OptionalDouble rawLanesMicros) {
    if (breakdown.isEmpty()) {
      return;
    }
    md.append(
        "### Where the time goes (median ms per stage from the results' `timings_ms`, after"
            + " warm-up)\n\n| corpus | search | bm25 | vector | exact_tag | fusion | rows | total |\n"
            + "|---|---|---|---|---|---|---|---|\n");
    JsonNode hybrid100k = null;
    for (JsonNode row : breakdown.get().path("results")) {
      JsonNode m = row.path("median_ms");
      if (row.path("corpus").asText().equals("100k")
          && row.path("lane").asText().equals("hybrid")) {
        hybrid100k = m;
      }
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %s | %s | %s |%n",
              row.path("corpus").asText(),
              row.path("lane").asText(),
              stage(m, "bm25"),
              stage(m, "vector"),
              stage(m, "exact_tag"),
              stage(m, "fusion"),
              stage(m, "rows"),
              stage(m, "total")));
    }
    md.append(
        "\n`rows` reads the fused records and their chunks, merges spans and cuts excerpts. Stage"
            + " medians need not add up to the total, which also holds query parsing.\n\n");
    JsonNode m = hybrid100k;
    if (m != null
        && rawLanesMicros.isPresent()
        && m.has("bm25")
        && m.has("vector")
        && m.has("exact_tag")
        && m.has("fusion")) {
      double lanes =
          m.path("bm25").asDouble()
              + m.path("vector").asDouble()
              + m.path("exact_tag").asDouble()
              + m.path("fusion").asDouble();
      double raw = rawLanesMicros.getAsDouble() / 1000;
      md.append(
          String.format(
              Locale.ROOT,
              "At 100k the hybrid search's lanes and fusion alone take %.2f ms (bm25 + vector +"
                  + " exact_tag + fusion medians), %.2fx the raw lanes of the `perf` run (%.3f ms):"
                  + " about the least hybrid / raw lanes could read if rows cost nothing; rows add"
                  + " %.2f ms. (Two runs: see their loads under Runs.)%n%n",
              lanes,
              lanes / raw,
              raw,
              m.path("rows").asDouble()));
    }
  }

  private static String stage(JsonNode medians, String key) {
    return medians.has(key) ? String.format(Locale.ROOT, "%.2f", medians.get(key).asDouble()) : "-";
  }
}
