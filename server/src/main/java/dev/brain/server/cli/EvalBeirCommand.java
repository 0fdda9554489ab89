package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.IndexSettings;
import dev.brain.evals.BeirEvaluation;
import dev.brain.evals.BeirReport;
import dev.brain.retrieval.FusionMode;
import dev.brain.retrieval.Lane;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

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
final class EvalBeirCommand implements Callable<Integer> {
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
    var format = EvalCommand.Options.vectorFormat(cli, vectorFormat);
    var data = eval.brain.dataDir();
    var name = EvalCommand.folderName(dir);
    var usual = eval.brain.config().index();
    int tokens = chunkTokens != null ? chunkTokens : usual.chunkMaxTokens();
    int overlap =
        chunkOverlap != null
            ? chunkOverlap
            : chunkTokens != null ? tokens / 8 : usual.chunkOverlapTokens();
    var settings = usual.withIndexing(format, tokens, overlap);
    String cacheName = EvalCommand.cacheName(dir, settings.model(), format);
    if (tokens != usual.chunkMaxTokens() || overlap != usual.chunkOverlapTokens()) {
      cacheName += "-c" + tokens + "o" + overlap;
    }
    var cacheDir = data.resolve("eval-cache").resolve(cacheName);
    var config = eval.brain.config().forBackendEvaluation(cacheDir, cacheName, settings);
    try {
      config.indexConfig();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          cli, "invalid --chunk-tokens/--chunk-overlap: " + e.getMessage());
    }
    var options = new BeirEvaluation.Options(dir, laneSet, mode, maxQueries);
    var err = cli.getErr();
    var out = cli.getOut();
    var index = config.index();
    err.println(
        "cache index: "
            + (index.backend() == IndexSettings.BackendKind.SOLR
                ? "solr collection " + index.solr().collection()
                : config.indexConfig().directory()));
    BeirReport report;
    try (var progress = SyncProgress.forCommand(true, err);
        var brain = Brain.open(config)) {
      report = new BeirEvaluation(options).run(brain, progress, EvalCommand.tableLines(out, json));
    }
    var file = EvalCommand.writeReport(data, "beir-" + name, report);
    if (json) {
      out.println(PrettyJson.pretty(report));
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
