package dev.brain.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.IndexSettings;
import dev.brain.evals.AnswerEvaluation;
import dev.brain.evals.AnswerReport;
import dev.brain.evals.BeirEvaluation;
import dev.brain.evals.BeirReport;
import dev.brain.evals.CaseProposal;
import dev.brain.evals.DocumentAnswerEvaluation;
import dev.brain.evals.DocumentAnswerReport;
import dev.brain.evals.EvalException;
import dev.brain.evals.ResearchEvalCase;
import dev.brain.evals.ResearchEvalReport;
import dev.brain.evals.ResearchEvaluation;
import dev.brain.index.VectorFormat;
import dev.brain.research.trace.TraceStore;
import dev.brain.retrieval.FusionMode;
import dev.brain.retrieval.Lane;
import dev.brain.solr.SolrBackend;
import dev.brain.solr.SolrConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
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
    description = "Measure retrieval, research and answer quality.",
    subcommands = {
      EvalCommand.Beir.class,
      EvalCommand.Research.class,
      EvalCommand.Propose.class,
      EvalCommand.Answers.class
    })
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
      var opener = BeirEvaluation.EMBEDDED;
      String cache = cacheDir.toString();
      var settings = eval.brain.config().index();
      if (settings.backend() == IndexSettings.BackendKind.SOLR) {
        // The eval corpus gets a collection of its own beside the configured one.
        var solr = settings.solr().toSolrConfig();
        var own =
            new SolrConfig(
                solr.zkHosts(),
                solr.urls(),
                solr.collection() + "-eval-" + cacheName,
                solr.shards(),
                solr.replicas());
        opener = index -> SolrBackend.open(own, index);
        cache = "solr " + own.where() + " collection " + own.collection();
      }
      var options = new BeirEvaluation.Options(dir, config, laneSet, mode, maxQueries, opener);
      var err = cli.getErr();
      var out = cli.getOut();
      err.println("cache index: " + cache);
      BeirReport report;
      try (var progress = SyncProgress.forCommand(true, err)) {
        report = new BeirEvaluation(options).run(progress, tableLines(out, json));
      }
      var file = writeReport(data, "beir-" + name, report);
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

  /** {@code brain eval answers DIR}. */
  @Command(
      name = "answers",
      mixinStandardHelpOptions = true,
      description = {
        "Evaluate answers on a folder with corpus.jsonl, queries.jsonl (the gold answer in"
            + " metadata.answer) and qrels/test.tsv: each question goes through the research run"
            + " with the extractive synthesizer; reports how often the answer contains the gold"
            + " answer, how often it cites a relevant document, retrieval nDCG@10 per lane and"
            + " fused, and latency, and lists the misses.",
        "Or on a folder of documents (its corpus/ folder, else the folder itself) with questions"
            + " (its questions.jsonl and every --questions FILE; JSON lines {\"id\", \"q\","
            + " \"expect\": [file names], \"fact\"}, an empty expect for a question the documents"
            + " cannot answer): reports search hit@1/3/10 and MRR@10 of the first expected file,"
            + " how many answers cite an expected file and state the fact, how many unanswerable"
            + " questions were declined (no_evidence), latency, and every miss.",
        "The corpus is indexed once into <data>/eval-cache/ (shared with eval beir) and reused on"
            + " re-runs; a JSON report is written to <data>/eval-reports/."
      })
  static final class Answers implements Callable<Integer> {
    @ParentCommand EvalCommand eval;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "DIR", description = "The folder.")
    Path dir;

    @Option(
        names = "--max-queries",
        paramLabel = "N",
        description = "Evaluate only the first N judged questions (0 = all).")
    int maxQueries;

    @Option(
        names = "--questions",
        paramLabel = "FILE",
        description =
            "A question file for a folder of documents (repeatable), read after the folder's own"
                + " questions.jsonl.")
    List<Path> questions = List.of();

    @Option(names = "--json", description = "Print the report as JSON instead of a table.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      var cli = spec.commandLine();
      if (!Files.isDirectory(dir)) {
        throw new ParameterException(cli, "not a folder: " + dir);
      }
      if (!Files.isRegularFile(dir.resolve("queries.jsonl"))) {
        return documents(cli);
      }
      if (!questions.isEmpty()) {
        throw new ParameterException(
            cli, "--questions is for a folder of documents; " + dir + " is a BEIR folder");
      }
      var data = eval.brain.dataDir();
      var name = dir.toAbsolutePath().normalize().getFileName().toString();
      var config = eval.brain.indexConfig();
      var cacheDir =
          data.resolve("eval-cache")
              .resolve(
                  name
                      + "-"
                      + config.model().id()
                      + "-"
                      + config.vectorFormat().name().toLowerCase(Locale.ROOT));
      config = config.withDirectory(cacheDir);
      var err = cli.getErr();
      var out = cli.getOut();
      err.println("cache index: " + cacheDir);
      AnswerReport report;
      try (var progress = SyncProgress.forCommand(true, err)) {
        report =
            new AnswerEvaluation(new AnswerEvaluation.Options(dir, config, maxQueries))
                .run(progress, tableLines(out, json));
      }
      var file = writeReport(data, "answers-" + name, report);
      if (json) {
        out.println(PrettyJson.pretty(report));
      } else {
        var misses = report.misses();
        if (!misses.isEmpty()) {
          out.println();
          out.println("misses (" + misses.size() + "):");
          misses.forEach(out::println);
        }
        out.println();
        out.println(report.summary());
      }
      err.println("report: " + file);
      return 0;
    }

    /** The evaluation of a folder of documents with questions about them. */
    private int documents(picocli.CommandLine cli) throws IOException {
      var data = eval.brain.dataDir();
      var name = dir.toAbsolutePath().normalize().getFileName().toString();
      var config = eval.brain.indexConfig();
      var cacheDir =
          data.resolve("eval-cache")
              .resolve(
                  name
                      + "-"
                      + config.model().id()
                      + "-"
                      + config.vectorFormat().name().toLowerCase(Locale.ROOT));
      DocumentAnswerEvaluation.Options options;
      try {
        options =
            DocumentAnswerEvaluation.layout(
                dir, questions, config.withDirectory(cacheDir), maxQueries);
      } catch (EvalException e) {
        return badInput(cli, e);
      }
      var err = cli.getErr();
      var out = cli.getOut();
      err.println("cache index: " + cacheDir);
      DocumentAnswerReport report;
      try (var progress = SyncProgress.forCommand(true, err)) {
        report =
            new DocumentAnswerEvaluation(options)
                .run(
                    progress,
                    line -> {
                      if (!json) {
                        out.println(line);
                      }
                    });
      } catch (EvalException e) {
        return badInput(cli, e);
      }
      var file = writeReport(data, "answers-" + name, report);
      if (json) {
        out.println(PrettyJson.pretty(report));
      } else {
        var misses = report.misses();
        if (!misses.isEmpty()) {
          out.println();
          out.println("misses (" + misses.size() + "):");
          misses.forEach(out::println);
        }
        out.println();
        out.println(report.summary());
      }
      err.println("report: " + file);
      return 0;
    }
  }

  /** {@code brain eval research --cases FILE...}. */
  @Command(
      name = "research",
      mixinStandardHelpOptions = true,
      description = {
        "Run research eval cases (JSON Lines, research_eval_case.v1) against the index: planner"
            + " off, and planner on when a planner model is configured; list every failed"
            + " assertion with the case, the field, expected and actual.",
        "Exit status: 0 when every case passes, 1 when one fails, 2 for a bad case file."
      })
  static final class Research implements Callable<Integer> {
    @ParentCommand EvalCommand eval;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--cases",
        paramLabel = "FILE",
        arity = "1..*",
        required = true,
        description = "Case files (JSON Lines).")
    List<Path> cases;

    @Option(
        names = "--planner",
        paramLabel = "MODE",
        description =
            "off, on or both. Default: both (planner-on only when chat.planner-model or chat.model is configured).")
    String planner = "both";

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    @Override
    public Integer call() throws IOException {
      var cli = spec.commandLine();
      List<ResearchEvalCase> read;
      ResearchEvaluation.PlannerMode mode;
      try {
        mode = ResearchEvaluation.PlannerMode.parse(planner);
        read = ResearchEvalCase.read(cases);
      } catch (EvalException e) {
        return badInput(cli, e);
      }
      try (var brain = eval.brain.openExisting()) {
        var plannerModel = brain.chatModel(brain.config().chat().plannerSpec());
        ResearchEvalReport report;
        try {
          report =
              new ResearchEvaluation(
                      request -> brain.run(request, null),
                      q -> brain.request(q).withPlanner(null),
                      plannerModel)
                  .run(read, mode);
        } catch (EvalException e) {
          return badInput(cli, e);
        }
        var out = cli.getOut();
        out.print(json ? PrettyJson.pretty(report) + "\n" : report.text());
        out.flush();
        return report.passed() ? 0 : 1;
      }
    }
  }

  /** {@code brain eval propose --from-trace RUN}. */
  @Command(
      name = "propose",
      mixinStandardHelpOptions = true,
      description = {
        "Draft an eval case from a saved research run: its question, continuity, answer status,"
            + " stop reason, judge verdict, cited and top evidence keys; answer text only with"
            + " --include-answer. The draft says \"reviewed\": false until you edit it.",
        "Prints the case line, or appends it to --output FILE."
      })
  static final class Propose implements Callable<Integer> {
    @ParentCommand EvalCommand eval;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--from-trace",
        paramLabel = "RUN",
        required = true,
        description = "Run id, unique prefix, latest, or a trace directory.")
    String run;

    @Option(
        names = "--include-answer",
        description = "Require the answer's first lines too (review them: answers may be wrong).")
    boolean includeAnswer;

    @Option(
        names = "--output",
        paramLabel = "FILE",
        description = "Append the draft to this case file instead of printing it.")
    Path output;

    @Override
    public Integer call() throws IOException {
      var cli = spec.commandLine();
      TraceStore store = TraceCommand.store(eval.brain);
      var dir = store.find(run);
      if (dir.isEmpty()) {
        return badInput(
            cli,
            new EvalException(
                "no saved run '"
                    + run
                    + "' in "
                    + store.root()
                    + "; list them with 'brain trace list'"));
      }
      JsonNode trace = store.readJson(dir.get());
      ResearchEvalCase draft;
      try {
        draft = CaseProposal.fromTrace(trace, includeAnswer);
      } catch (EvalException e) {
        return badInput(cli, e);
      }
      String line = CaseProposal.line(draft);
      if (output == null) {
        cli.getOut().println(line);
      } else {
        try {
          CaseProposal.append(draft, output);
        } catch (EvalException e) {
          return badInput(cli, e);
        }
        cli.getErr().println("draft case " + draft.id() + " appended to " + output);
      }
      return 0;
    }
  }

  /** Prints a bad case file's or trace's error (file, line, field) and returns the usage code. */
  static int badInput(picocli.CommandLine cli, EvalException e) {
    cli.getErr().println("brain: " + e.getMessage());
    return BrainCommand.EXIT_USAGE;
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

  /**
   * Prints a report's table lines as they come, the header before the first one (so a bad folder
   * prints only its error); nothing in JSON mode.
   */
  private static Consumer<String> tableLines(PrintWriter out, boolean json) {
    var headerPrinted = new boolean[1];
    return line -> {
      if (json) {
        return;
      }
      if (!headerPrinted[0]) {
        out.println(BeirReport.header());
        headerPrinted[0] = true;
      }
      out.println(line);
    };
  }

  /** Writes {@code report} to {@code <data>/eval-reports/<stem>-<time>.json}; returns the file. */
  private static Path writeReport(Path data, String stem, Object report) throws IOException {
    var reports = Files.createDirectories(data.resolve("eval-reports"));
    var file =
        reports.resolve(
            stem
                + "-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                + ".json");
    Files.writeString(file, PrettyJson.pretty(report));
    return file;
  }
}
