package dev.brain.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The JMH JSON results and side files that {@code bench/run} writes to {@code bench/results}. */
final class Results {

  static final ObjectMapper JSON = new ObjectMapper();

  private final Path dir;

  Results(Path dir) {
    this.dir = dir;
  }

  /**
   * One JMH result: a benchmark with its parameters.
   *
   * @param name the method, e.g. {@code SearchBench.search}
   * @param params JMH parameters
   * @param score the primary score (mean) in {@code unit}
   * @param percentiles for SampleTime: {@code 50.0}, {@code 90.0}, {@code 99.0}, ... in {@code
   *     unit}
   * @param samples measured samples (SampleTime) or 0
   * @param secondary secondary metric scores by name
   * @param settings the run's JMH settings, for the summary
   */
  record Run(
      String name,
      Map<String, String> params,
      double score,
      double error,
      String unit,
      Map<String, Double> percentiles,
      long samples,
      Map<String, Double> secondary,
      Settings settings) {

    String param(String key) {
      return params.getOrDefault(key, "");
    }

    double percentile(String p) {
      return percentiles.getOrDefault(p, Double.NaN);
    }
  }

  /** JVM and iteration settings of a run. */
  record Settings(
      String jdk,
      String vm,
      int forks,
      int warmupIterations,
      String warmupTime,
      int measurementIterations,
      String measurementTime,
      String mode) {

    String describe() {
      return String.format(
          "%s, %d fork, %d x %s warmup, %d x %s measurement",
          mode, forks, warmupIterations, warmupTime, measurementIterations, measurementTime);
    }
  }

  /** The runs of {@code <group>.json}, or empty if the group has not run. */
  List<Run> group(String group) throws IOException {
    Path file = dir.resolve(group + ".json");
    if (!Files.isRegularFile(file)) {
      return List.of();
    }
    var runs = new ArrayList<Run>();
    for (JsonNode n : JSON.readTree(file.toFile())) {
      runs.add(run(n));
    }
    return runs;
  }

  /** A side file ({@code <name>.json} that is not JMH output, or a {@code .meta.json}). */
  Optional<JsonNode> file(String name) throws IOException {
    Path file = dir.resolve(name);
    return Files.isRegularFile(file) ? Optional.of(JSON.readTree(file.toFile())) : Optional.empty();
  }

  static Run run(JsonNode n) {
    String benchmark = n.get("benchmark").asText();
    String[] parts = benchmark.split("\\.");
    String name = parts[parts.length - 2] + "." + parts[parts.length - 1];
    var params = new LinkedHashMap<String, String>();
    n.path("params").properties().forEach(e -> params.put(e.getKey(), e.getValue().asText()));
    JsonNode primary = n.get("primaryMetric");
    var percentiles = new LinkedHashMap<String, Double>();
    primary
        .path("scorePercentiles")
        .properties()
        .forEach(e -> percentiles.put(e.getKey(), e.getValue().asDouble()));
    var secondary = new LinkedHashMap<String, Double>();
    n.path("secondaryMetrics")
        .properties()
        .forEach(e -> secondary.put(e.getKey(), e.getValue().path("score").asDouble()));
    var settings =
        new Settings(
            n.path("jdkVersion").asText(),
            n.path("vmName").asText() + " " + n.path("vmVersion").asText(),
            n.path("forks").asInt(),
            n.path("warmupIterations").asInt(),
            n.path("warmupTime").asText(),
            n.path("measurementIterations").asInt(),
            n.path("measurementTime").asText(),
            n.path("mode").asText());
    return new Run(
        name,
        params,
        primary.path("score").asDouble(),
        primary.path("scoreError").asDouble(Double.NaN),
        primary.path("scoreUnit").asText(),
        percentiles,
        primary.has("sampleCount")
            ? primary.get("sampleCount").asLong()
            : samples(primary.path("rawDataHistogram")),
        secondary,
        settings);
  }

  /**
   * Shrinks a JMH result file for the repository: each SampleTime histogram (megabytes of [value,
   * count] pairs; the percentiles are already computed) becomes its sample count. Files already
   * compacted are left as they are.
   */
  static void compact(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      return;
    }
    JsonNode root = JSON.readTree(file.toFile());
    if (!root.isArray()) {
      return; // not JMH output
    }
    boolean changed = false;
    for (JsonNode run : root) {
      JsonNode primary = run.path("primaryMetric");
      if (primary instanceof com.fasterxml.jackson.databind.node.ObjectNode p
          && p.has("rawDataHistogram")) {
        p.put("sampleCount", samples(p.get("rawDataHistogram")));
        p.remove("rawDataHistogram");
        changed = true;
      }
    }
    if (changed) {
      JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), root);
    }
  }

  /**
   * Samples in a SampleTime histogram: {@code rawDataHistogram} is forks x iterations x [value,
   * count] pairs.
   */
  static long samples(JsonNode histogram) {
    long total = 0;
    for (JsonNode fork : histogram) {
      for (JsonNode iteration : fork) {
        for (JsonNode pair : iteration) {
          total += pair.get(1).asLong();
        }
      }
    }
    return total;
  }
}
