package dev.brain.server.cli;

import dev.brain.evals.BeirEvaluation;
import dev.brain.evals.BeirReport;
import dev.brain.index.VectorFormat;
import dev.brain.retrieval.FusionMode;
import dev.brain.retrieval.Lane;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code brain eval}: quality measurements. */
@Command(
    name = "eval",
    mixinStandardHelpOptions = true,
    description = "Measure retrieval quality.",
    subcommands = {EvalCommand.Beir.class})
final class EvalCommand {

  @ParentCommand BrainCommand brain;

  /** {@code brain eval beir DIR}. */
  @Command(
      name = "beir",
      mixinStandardHelpOptions = true,
      description = {
        "Evaluate on a BEIR-layout folder (corpus.jsonl, queries.jsonl, qrels/test.tsv):"
            + " nDCG@10, Recall@100, MRR@10 and queries/s per lane and fused.",
        "The corpus is indexed once into <data>/eval-cache/ and reused (incrementally updated) on"
            + " re-runs; a JSON report is written to <data>/eval-reports/."
      })
  static final class Beir implements Callable<Integer> {
    @ParentCommand EvalCommand eval;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "DIR", description = "The BEIR folder.")
    Path dir;

    @Option(
        names = "--lanes",
        paramLabel = "LANES",
        description = "Lanes to evaluate alone and fused (comma-separated). Default: bm25,vector.")
    String lanes = "bm25,vector";

    @Option(
        names = "--fusion",
        paramLabel = "MODE",
        description = "Fusion of the hybrid condition: rrf or normalized. Default: rrf.")
    String fusion = "rrf";

    @Option(
        names = "--vector-format",
        paramLabel = "FORMAT",
        description = "Vector format of the cache index: float, int8 or int4. Default: float.")
    String vectorFormat = "float";

    @Option(
        names = "--chunk-tokens",
        paramLabel = "N",
        description =
            "Token budget of a chunk in the cache index (16-8192). Default: the index default,"
                + " 256. Another budget gets its own cache folder.")
    Integer chunkTokens;

    @Option(
        names = "--chunk-overlap",
        paramLabel = "N",
        description =
            "Tokens shared by neighbouring chunks (at most half the budget). Default: an eighth"
                + " of the budget (32 for 256).")
    Integer chunkOverlap;

    @Option(
        names = "--max-queries",
        paramLabel = "N",
        description = "Evaluate only the first N judged queries (0 = all).")
    int maxQueries;

    @Option(names = "--json", description = "Print the report as JSON instead of a table.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      var cli = spec.commandLine();
      if (!Files.isDirectory(dir)) {
        throw new ParameterException(cli, "not a folder: " + dir);
      }
      var laneSet = Lane.parseList(lanes);
      var mode = FusionMode.parse(fusion);
      var format = Options.vectorFormat(cli, vectorFormat);
      var data = eval.brain.dataDir();
      var name = dir.toAbsolutePath().normalize().getFileName().toString();
      var config = eval.brain.indexConfig().withVectorFormat(format);
      String cacheName =
          name + "-" + config.model().id() + "-" + format.name().toLowerCase(Locale.ROOT);
      if (chunkTokens != null || chunkOverlap != null) {
        int tokens = chunkTokens != null ? chunkTokens : config.chunkMaxTokens();
        int overlap = chunkOverlap != null ? chunkOverlap : tokens / 8;
        try {
          config = config.withChunking(tokens, overlap);
        } catch (IllegalArgumentException e) {
          throw new ParameterException(
              cli, "invalid --chunk-tokens/--chunk-overlap: " + e.getMessage());
        }
        var usual = eval.brain.indexConfig();
        if (tokens != usual.chunkMaxTokens() || overlap != usual.chunkOverlapTokens()) {
          cacheName += "-c" + tokens + "o" + overlap;
        }
      }
      var cacheDir = data.resolve("eval-cache").resolve(cacheName);
      config = config.withDirectory(cacheDir);
      var options = new BeirEvaluation.Options(dir, config, laneSet, mode, maxQueries);
      var err = cli.getErr();
      var out = cli.getOut();
      err.println("cache index: " + cacheDir);
      // The header waits for the first result so a bad folder prints only its error.
      var headerPrinted = new boolean[1];
      BeirReport report;
      try (var progress = SyncProgress.forCommand(true, err)) {
        report =
            new BeirEvaluation(options)
                .run(
                    progress,
                    line -> {
                      if (json) {
                        return;
                      }
                      if (!headerPrinted[0]) {
                        out.println(BeirReport.header());
                        headerPrinted[0] = true;
                      }
                      out.println(line);
                    });
      }
      var reports = Files.createDirectories(data.resolve("eval-reports"));
      var file =
          reports.resolve(
              "beir-"
                  + name
                  + "-"
                  + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                  + ".json");
      Files.writeString(file, Json.pretty(report));
      if (json) {
        out.println(Json.pretty(report));
      } else {
        out.printf(
            Locale.ROOT,
            "%d queries, %d records, %d chunks, model %s, %s vectors, fusion %s%n",
            report.queries(),
            report.records(),
            report.chunks(),
            report.model(),
            report.vectorFormat(),
            report.fusion());
      }
      err.println("report: " + file);
      return 0;
    }
  }

  /** Parsing of option values shared by the commands; a bad value is a usage error. */
  static final class Options {
    private Options() {}

    static VectorFormat vectorFormat(picocli.CommandLine cli, String value) {
      for (var f : VectorFormat.values()) {
        if (f.name().equalsIgnoreCase(value)) {
          return f;
        }
      }
      throw new ParameterException(
          cli, "unknown vector format '" + value + "'; use float, int8 or int4");
    }
  }
}
