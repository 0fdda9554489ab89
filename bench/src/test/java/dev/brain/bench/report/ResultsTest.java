package dev.brain.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsTest {

  @TempDir Path dir;

  private static final String SAMPLE_TIME_RUN =
      """
      [{"jmhVersion":"1.37","benchmark":"dev.brain.bench.SearchBench.search","mode":"sample",
        "threads":1,"forks":1,"jdkVersion":"25.0.1","vmName":"OpenJDK 64-Bit Server VM",
        "vmVersion":"25.0.1+8","warmupIterations":2,"warmupTime":"2 s","measurementIterations":3,
        "measurementTime":"3 s","params":{"corpus":"100k","lane":"hybrid"},
        "primaryMetric":{"score":5100.5,"scoreError":120.0,"scoreUnit":"us/op",
          "scorePercentiles":{"0.0":900.0,"50.0":4800.0,"90.0":7000.0,"99.0":12000.0,"100.0":30000.0},
          "rawDataHistogram":[[[[4800.0,10],[7000.0,5]],[[4900.0,7]],[[5000.0,3]]]]},
        "secondaryMetrics":{}}]
      """;

  @Test
  void readsPercentilesSamplesAndSettingsOfASampleTimeRun() throws IOException {
    Files.writeString(dir.resolve("search.json"), SAMPLE_TIME_RUN);

    var runs = new Results(dir).group("search");

    assertThat(runs).hasSize(1);
    var run = runs.getFirst();
    assertThat(run.name()).isEqualTo("SearchBench.search");
    assertThat(run.param("lane")).isEqualTo("hybrid");
    assertThat(run.percentile("50.0")).isEqualTo(4800.0);
    assertThat(run.percentile("99.0")).isEqualTo(12000.0);
    assertThat(run.samples()).isEqualTo(25);
    assertThat(run.settings().describe())
        .isEqualTo("sample, 1 fork, 2 x 2 s warmup, 3 x 3 s measurement");
  }

  @Test
  void compactingReplacesTheHistogramWithItsSampleCount() throws IOException {
    Path file = Files.writeString(dir.resolve("search.json"), SAMPLE_TIME_RUN);

    Results.compact(file);

    assertThat(Files.readString(file)).doesNotContain("rawDataHistogram").contains("sampleCount");
    var run = new Results(dir).group("search").getFirst();
    assertThat(run.samples()).isEqualTo(25);
    assertThat(run.percentile("99.0")).isEqualTo(12000.0);
  }

  @Test
  void aGroupThatHasNotRunHasNoResults() throws IOException {
    assertThat(new Results(dir).group("research")).isEmpty();
  }

  @Test
  void summaryStatesTheHybridTargetsFromTheSameRun() throws IOException {
    String run = SAMPLE_TIME_RUN.strip();
    String body = run.substring(1, run.length() - 1);
    String bm25 = body.replace("\"hybrid\"", "\"lucene-bm25\"").replace("4800.0,", "1000.0,");
    String knn = body.replace("\"hybrid\"", "\"lucene-knn\"").replace("4800.0,", "2000.0,");
    Files.writeString(dir.resolve("search.json"), "[" + body + "," + bm25 + "," + knn + "]");
    Files.writeString(
        dir.resolve("search.meta.json"),
        "{\"finished_at\": \"2026-11-26T20:30:37Z\", \"command\": \"bench/run search\"}");

    String md =
        new Summary(new Results(dir), new Machine("Test CPU", 2, 8_000_000_000L, "Linux", "1 1 1"))
            .markdown();

    assertThat(md)
        .contains(
            "| hybrid search p50 at 100k chunks, `search` run of 2026-11-26T20:30:37Z | < 10 ms"
                + " | 4.80 ms | yes |")
        .contains("Against raw Lucene top 10 (BM25 + kNN k = 10: 3.00 ms at 100k) hybrid is 1.6x.")
        .contains("Test CPU, 2 cores");
  }

  @Test
  void summaryStatesIssue32sTargetsFromThePerfRun() throws IOException {
    String run = SAMPLE_TIME_RUN.strip();
    String body = run.substring(1, run.length() - 1);
    String bm25 = body.replace("\"hybrid\"", "\"lucene-bm25@100\"").replace("4800.0,", "2000.0,");
    String knn = body.replace("\"hybrid\"", "\"lucene-knn@100\"").replace("4800.0,", "1000.0,");
    String pack =
        body.replace("SearchBench.search", "ResearchBench.pack")
            .replace(",\"lane\":\"hybrid\"", "")
            .replace("4800.0,", "14000.0,");
    Files.writeString(
        dir.resolve("perf.json"), "[" + pack + "," + body + "," + bm25 + "," + knn + "]");

    String md =
        new Summary(new Results(dir), new Machine("Test CPU", 2, 8_000_000_000L, "Linux", "1 1 1"))
            .markdown();

    assertThat(md)
        .contains("| research pack (planner off) | 14.0 |")
        .contains("Hybrid / (raw BM25 top 100 + raw kNN k = 100) = 1.60x (4.80 ms vs 3.00 ms).")
        .contains("1.5x | 1.60x (4.80 ms vs 3.00 ms) | **no** |")
        .contains("| <= 15 ms | 14.0 ms | yes |");
  }

  @Test
  void theBreakdownStatesWhatTheLanesAndFusionAloneCostAgainstThePerfRunsRawLanes()
      throws IOException {
    String run = SAMPLE_TIME_RUN.strip();
    String body = run.substring(1, run.length() - 1);
    String bm25 = body.replace("\"hybrid\"", "\"lucene-bm25@100\"").replace("4800.0,", "600.0,");
    String knn = body.replace("\"hybrid\"", "\"lucene-knn@100\"").replace("4800.0,", "200.0,");
    Files.writeString(dir.resolve("perf.json"), "[" + body + "," + bm25 + "," + knn + "]");
    Files.writeString(
        dir.resolve("search-breakdown.json"),
        """
        {"rounds": 3, "results": [
          {"corpus": "10k", "lane": "hybrid", "median_ms":
            {"bm25": 0.5, "vector": 0.3, "exact_tag": 0.04, "fusion": 0.06, "rows": 0.9}},
          {"corpus": "100k", "lane": "hybrid", "median_ms":
            {"bm25": 1.1, "vector": 0.36, "exact_tag": 0.04, "fusion": 0.1, "rows": 0.83,
             "total": 2.52}}]}
        """);

    String md =
        new Summary(new Results(dir), new Machine("Test CPU", 2, 8_000_000_000L, "Linux", "1 1 1"))
            .markdown();

    assertThat(md)
        .contains("| 100k | hybrid | 1.10 | 0.36 | 0.04 | 0.10 | 0.83 | 2.52 |")
        .contains(
            "At 100k the hybrid search's lanes and fusion alone take 1.60 ms (bm25 + vector +"
                + " exact_tag + fusion medians), 2.00x the raw lanes of the `perf` run (0.800 ms)")
        .contains("rows add 0.83 ms.");
    Files.delete(dir.resolve("perf.json"));
    assertThat(
            new Summary(
                    new Results(dir), new Machine("Test CPU", 2, 8_000_000_000L, "Linux", "1 1 1"))
                .markdown())
        .as("no perf run, no floor")
        .doesNotContain("lanes and fusion alone");
  }

  @Test
  void summaryStatesTheFormatsWithTheVectorsOnDiskAndTheirTarget() throws IOException {
    Files.writeString(
        dir.resolve("formats-cold.json"),
        """
        {"queries": 40, "k": 100, "read_ahead_kb": {"vda": 8192},
         "results": [
          {"corpus": "100k", "format": "FLOAT", "p50_ms": 128.7, "p90_ms": 150.0,
           "mean_ms": 129.2, "mean_vector_bytes_cached": 154800000,
           "vector_files_bytes": {"vec": 153700000, "vex": 1700000}},
          {"corpus": "100k", "format": "INT8", "p50_ms": 29.7, "p90_ms": 37.1,
           "mean_ms": 29.4, "mean_vector_bytes_cached": -1,
           "vector_files_bytes": {"vec": 153700000, "veq": 40100000, "vex": 1700000}}]}
        """);

    String md =
        new Summary(new Results(dir), new Machine("Test CPU", 2, 8_000_000_000L, "Linux", "1 1 1"))
            .markdown();

    assertThat(md)
        .contains("page cache dropped before each search; k=100, 40 queries")
        .contains("| 100k | FLOAT | 128.7 | 150.0 | 154.8 MB | 155.4 MB |")
        .contains("| 100k | INT8 | 29.7 | 37.1 | - | 195.5 MB |")
        .contains("(vda 8192 KB)")
        .contains(
            "| int8 kNN p50 vs float, vectors read from disk (100k, k=100) | lower"
                + " | 29.7 ms vs 128.7 ms | yes |");
  }
}
