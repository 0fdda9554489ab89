package dev.brain.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.bench.report.Results.Run;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The vector formats table of the summary: latency, recall and size of float, int8 and int4 HNSW
 * per corpus size, and the int8 targets.
 */
final class FormatsSection {
  /** Adds a target row: what, goal, measured, met. */
  interface Targets {
    void add(String what, String goal, String measured, boolean met);
  }

  private final StringBuilder md;
  private final Targets targets;

  FormatsSection(StringBuilder md, Targets targets) {
    this.md = md;
    this.targets = targets;
  }

  void write(List<Run> formats, Optional<JsonNode> quality, Optional<JsonNode> cold) {
    if (formats.isEmpty() && quality.isEmpty() && cold.isEmpty()) {
      return;
    }
    md.append("## Vector formats (HNSW M=16, beam 100; one segment)\n\n");
    if (!formats.isEmpty() || quality.isPresent()) {
      inMemory(formats, quality);
    }
    cold.ifPresent(this::coldTable);
  }

  /** Latency (JMH), recall and sizes with the vectors in memory. */
  private void inMemory(List<Run> formats, Optional<JsonNode> quality) {
    md.append(
        "| corpus | format | p50 µs k=10 | p99 µs k=10 | recall@10, k=10 | p50 µs k=100 |"
            + " recall@10, k=100 | recall vs float (k=10 / k=100) | searched bytes (.vec or .veq,"
            + " + .vex) | vs float | raw floats .vec | heap retained |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (String corpus : List.of("10k", "100k")) {
      FormatRow floatRow = null;
      for (String format : List.of("FLOAT", "INT8", "INT4")) {
        FormatRow row = formatRow(formats, quality, corpus, format);
        if (row == null) {
          continue;
        }
        if (format.equals("FLOAT")) {
          floatRow = row;
        }
        FormatRow f = floatRow;
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %.0f | %.0f | %.3f | %.0f | %.3f | %s | %s | %s | %s | %s |%n",
                corpus,
                format,
                row.p50k10,
                row.p99k10,
                row.recall,
                row.p50k100,
                row.deepRecall,
                f == null
                    ? "-"
                    : String.format(
                        Locale.ROOT,
                        "%.3f / %.3f",
                        row.recall / f.recall,
                        row.deepRecall / f.deepRecall),
                Summary.mb(row.bytes),
                f == null ? "-" : String.format(Locale.ROOT, "%.1fx smaller", f.bytes / row.bytes),
                Summary.mb(row.vec),
                Summary.mb(row.heap)));
        if (format.equals("INT8") && f != null && corpus.equals("100k")) {
          formatTargets(row, f);
        }
      }
    }
    md.append(
        "\nRecall is against exact search (brute-force dot products over the same vectors); with"
            + " k=100 (the vector lane's depth) the first 10 hits count. Quantized formats keep the"
            + " raw floats on disk as well (brain reads them back to reuse embeddings on re-sync),"
            + " so their index is larger on disk; search reads the quantized vectors and the graph."
            + " Heap is what an open reader retains after the queries (vectors are memory-mapped,"
            + " off-heap).\n\n");
  }

  /**
   * kNN search with the vectors read from storage ({@code ColdKnn}): the page cache dropped before
   * each search, the index opened afresh.
   */
  private void coldTable(JsonNode cold) {
    md.append(
        String.format(
            Locale.ROOT,
            "### With the vectors on disk (page cache dropped before each search; k=%d, %d"
                + " queries)%n%n",
            cold.path("k").asInt(),
            cold.path("queries").asInt()));
    md.append(
        "| corpus | format | p50 ms | p90 ms | vector files read into memory (mean) |"
            + " vector files on disk |\n");
    md.append("|---|---|---|---|---|---|\n");
    JsonNode floatRow = null;
    for (JsonNode row : cold.path("results")) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %.1f | %.1f | %s | %s |%n",
              row.path("corpus").asText(),
              row.path("format").asText(),
              row.path("p50_ms").asDouble(),
              row.path("p90_ms").asDouble(),
              row.path("mean_vector_bytes_cached").asLong(-1) < 0
                  ? "-"
                  : Summary.mb(row.path("mean_vector_bytes_cached").asDouble()),
              Summary.mb(sum(row.path("vector_files_bytes")))));
      if (row.path("corpus").asText().equals("100k")) {
        if (row.path("format").asText().equals("FLOAT")) {
          floatRow = row;
        } else if (row.path("format").asText().equals("INT8") && floatRow != null) {
          double int8 = row.path("p50_ms").asDouble();
          double f = floatRow.path("p50_ms").asDouble();
          targets.add(
              "int8 kNN p50 vs float, vectors read from disk (100k, k=100)",
              "lower",
              String.format(Locale.ROOT, "%.1f ms vs %.1f ms", int8, f),
              int8 < f);
        }
      }
    }
    var readAhead = new StringBuilder();
    cold.path("read_ahead_kb")
        .properties()
        .forEach(
            e ->
                readAhead
                    .append(readAhead.isEmpty() ? "" : ", ")
                    .append(e.getKey())
                    .append(' ')
                    .append(e.getValue().asInt())
                    .append(" KB"));
    md.append(
        "\nRead into memory: the vector files' pages in the page cache after the index was opened"
            + " and searched once (util-linux `fincore`); a page fault reads ahead by the disk's"
            + " read-ahead ("
            + (readAhead.isEmpty() ? "unknown" : readAhead)
            + ").");
    md.append(
        " What int8 and int4 are for: once the vectors no longer fit in the page cache, each"
            + " search reads them from storage, and the smaller format reads less. In memory"
            + " (the table above) float is faster here, so float stays the default.\n\n");
  }

  private static double sum(JsonNode sizes) {
    double total = 0;
    for (JsonNode size : sizes) {
      total += size.asDouble();
    }
    return total;
  }

  /** One format's figures; NaN where a run is missing. */
  private record FormatRow(
      double p50k10,
      double p99k10,
      double p50k100,
      double recall,
      double deepRecall,
      double bytes,
      double vec,
      double heap) {}

  private static FormatRow formatRow(
      List<Run> formats, Optional<JsonNode> quality, String corpus, String format) {
    Optional<Run> k10 = findFormat(formats, corpus, format, "10");
    Optional<Run> k100 = findFormat(formats, corpus, format, "100");
    Optional<JsonNode> q = qualityRow(quality, corpus, format);
    if (k10.isEmpty() && q.isEmpty()) {
      return null;
    }
    return new FormatRow(
        k10.map(r -> r.percentile("50.0")).orElse(Double.NaN),
        k10.map(r -> r.percentile("99.0")).orElse(Double.NaN),
        k100.map(r -> r.percentile("50.0")).orElse(Double.NaN),
        q.map(n -> n.path("recall_at_10").asDouble()).orElse(Double.NaN),
        q.map(n -> n.path("recall_at_10_k100").asDouble(Double.NaN)).orElse(Double.NaN),
        q.map(n -> n.path("search_vector_bytes").asDouble()).orElse(Double.NaN),
        q.map(n -> n.path("vector_files_bytes").path("vec").asDouble()).orElse(Double.NaN),
        q.map(n -> n.path("heap_bytes").asDouble()).orElse(Double.NaN));
  }

  static Optional<Run> findFormat(List<Run> runs, String corpus, String format, String k) {
    return runs.stream()
        .filter(
            r ->
                r.param("corpus").equals(corpus)
                    && r.param("format").equals(format)
                    && r.param("k").equals(k))
        .findFirst();
  }

  private void formatTargets(FormatRow int8, FormatRow f) {
    double ratio = int8.recall / f.recall;
    targets.add(
        "int8 recall@10 vs float (100k, k=10)",
        ">= 0.95",
        String.format(
            Locale.ROOT,
            "%.3f (%.3f vs %.3f; at k=100: %.3f vs %.3f)",
            ratio,
            int8.recall,
            f.recall,
            int8.deepRecall,
            f.deepRecall),
        ratio >= 0.95);
    targets.add(
        "int8 kNN p50 vs float (100k, k=10)",
        "lower",
        String.format(Locale.ROOT, "%.0f µs vs %.0f µs", int8.p50k10, f.p50k10),
        int8.p50k10 < f.p50k10);
    double smaller = f.bytes / int8.bytes;
    targets.add(
        "int8 vector data searched vs float (100k)",
        ">= 3x smaller",
        String.format(
            Locale.ROOT,
            "%.1fx smaller (%s vs %s)",
            smaller,
            Summary.mb(int8.bytes),
            Summary.mb(f.bytes)),
        smaller >= 3);
  }

  private static Optional<JsonNode> qualityRow(
      Optional<JsonNode> quality, String corpus, String format) {
    if (quality.isEmpty()) {
      return Optional.empty();
    }
    for (JsonNode row : quality.get().path("results")) {
      if (row.path("corpus").asText().equals(corpus)
          && row.path("format").asText().equals(format)) {
        return Optional.of(row);
      }
    }
    return Optional.empty();
  }
}
