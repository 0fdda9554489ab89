package dev.brain.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.bench.report.Results.Run;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Renders the benchmark report from {@code bench/results}: PNG charts (search latency by corpus
 * size per lane, recall vs latency per vector format, embedding throughput by batching) and {@code
 * summary.md}. A chart whose results are missing is skipped.
 *
 * <p>Arguments: the results folder, the charts folder ({@code docs/figures.md} embeds {@code
 * docs/bench}).
 */
public final class Charts {
  private Charts() {}

  private static final int WIDTH = 800;
  private static final int HEIGHT = 500;
  private static final Color[] PALETTE = {
    new Color(0xD62728),
    new Color(0x1F77B4),
    new Color(0x2CA02C),
    new Color(0x7F7F7F),
    new Color(0x9467BD),
    new Color(0xBCBD22),
    new Color(0x17BECF)
  };

  public static void main(String[] args) throws IOException {
    Path resultsDir = Path.of(args[0]);
    Path chartsDir = Path.of(args[1]);
    Files.createDirectories(chartsDir);
    try (var files = Files.list(resultsDir)) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        if (name.endsWith(".json") && !name.endsWith(".meta.json")) {
          Results.compact(f);
        }
      }
    }
    var results = new Results(resultsDir);
    var written = new ArrayList<Path>();
    searchLatency(results.group("search"), chartsDir.resolve("search-latency.png"), written);
    vectorFormats(
        results.group("formats"),
        results.file("formats-quality.json"),
        chartsDir.resolve("vector-formats.png"),
        written);
    embedding(results.group("embedding"), chartsDir.resolve("embedding-throughput.png"), written);
    Path summary = resultsDir.resolve("summary.md");
    Files.writeString(summary, new Summary(results, Machine.current()).markdown());
    written.add(summary);
    written.forEach(p -> System.err.println("wrote " + p));
  }

  /** p50 latency against corpus size (log-log), one line per lane and raw-Lucene baseline. */
  static void searchLatency(List<Run> runs, Path png, List<Path> written) throws IOException {
    if (runs.isEmpty()) {
      return;
    }
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title("Search latency p50 by corpus size (SciFact queries, 2 cores)")
            .xAxisTitle("chunks in the index")
            .yAxisTitle("p50 latency (ms)")
            .build();
    style(chart.getStyler());
    chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setXAxisDecimalPattern("#,###");
    int color = 0;
    for (String[] lane : Summary.LANES) {
      var x = new ArrayList<Double>();
      var y = new ArrayList<Double>();
      for (String corpus : List.of("10k", "100k")) {
        Optional<Run> run = Summary.find(runs, "corpus", corpus, "lane", lane[0]);
        if (run.isPresent()) {
          x.add(corpus.equals("10k") ? 9_210.0 : 100_000.0);
          y.add(run.get().percentile("50.0") / 1000);
        }
      }
      if (!x.isEmpty()) {
        XYSeries s = chart.addSeries(lane[0], x, y);
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setLineColor(PALETTE[color % PALETTE.length]);
        s.setMarkerColor(PALETTE[color % PALETTE.length]);
        color++;
      }
    }
    save(chart, png, written);
  }

  /**
   * Recall@10 against p50 kNN latency: one line per vector format and corpus, from k = 10 to k =
   * 100 (the vector lane's depth).
   */
  static void vectorFormats(
      List<Run> runs, Optional<JsonNode> quality, Path png, List<Path> written) throws IOException {
    if (runs.isEmpty() || quality.isEmpty()) {
      return;
    }
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title("HNSW recall@10 vs p50 latency by vector format (k = 10 and k = 100)")
            .xAxisTitle("p50 latency (µs, log)")
            .yAxisTitle("recall@10 vs exact search")
            .build();
    style(chart.getStyler());
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    int color = 0;
    for (String format : List.of("FLOAT", "INT8", "INT4")) {
      for (String corpus : List.of("10k", "100k")) {
        var x = new ArrayList<Double>();
        var y = new ArrayList<Double>();
        for (String k : List.of("10", "100")) {
          Optional<Run> run = FormatsSection.findFormat(runs, corpus, format, k);
          Optional<Double> recall =
              recall(
                  quality.get(),
                  corpus,
                  format,
                  k.equals("10") ? "recall_at_10" : "recall_at_10_k100");
          if (run.isPresent() && recall.isPresent()) {
            x.add(run.get().percentile("50.0"));
            y.add(recall.get());
          }
        }
        if (!x.isEmpty()) {
          XYSeries s =
              chart.addSeries(format.toLowerCase(java.util.Locale.ROOT) + " " + corpus, x, y);
          s.setMarker(corpus.equals("10k") ? SeriesMarkers.CIRCLE : SeriesMarkers.SQUARE);
          s.setLineColor(PALETTE[color]);
          s.setMarkerColor(PALETTE[color]);
        }
      }
      color++;
    }
    save(chart, png, written);
  }

  private static Optional<Double> recall(
      JsonNode quality, String corpus, String format, String field) {
    for (JsonNode row : quality.path("results")) {
      if (row.path("corpus").asText().equals(corpus)
          && row.path("format").asText().equals(format)
          && row.has(field)) {
        return Optional.of(row.path(field).asDouble());
      }
    }
    return Optional.empty();
  }

  /** Passages per second by batch size, bucketed and unbucketed. */
  static void embedding(List<Run> runs, Path png, List<Path> written) throws IOException {
    if (runs.isEmpty()) {
      return;
    }
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title("bge-small embedding throughput (64 SciFact chunks per operation)")
            .xAxisTitle("batch size")
            .yAxisTitle("passages / s")
            .build();
    style(chart.getStyler());
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
    var names = new ArrayList<String>();
    var bucketed = new ArrayList<Double>();
    var unbucketed = new ArrayList<Double>();
    for (Run r : runs) {
      Summary.EmbeddingRates e = Summary.EmbeddingRates.of(r);
      names.add(r.param("batchSize"));
      bucketed.add(e.bucketedPassages());
      unbucketed.add(e.unbucketedPassages());
    }
    chart.addSeries("bucketed by length", names, bucketed).setFillColor(PALETTE[1]);
    chart.addSeries("input order", names, unbucketed).setFillColor(PALETTE[3]);
    save(chart, png, written);
  }

  private static void style(org.knowm.xchart.style.AxesChartStyler styler) {
    styler.setChartBackgroundColor(Color.WHITE);
    styler.setPlotBackgroundColor(Color.WHITE);
    styler.setPlotGridLinesColor(new Color(0xDDDDDD));
    styler.setChartTitleBoxVisible(false);
    styler.setLegendBorderColor(Color.WHITE);
    styler.setAntiAlias(true);
  }

  private static void save(
      org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path png, List<Path> written)
      throws IOException {
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapFormat.PNG);
    written.add(png);
  }
}
