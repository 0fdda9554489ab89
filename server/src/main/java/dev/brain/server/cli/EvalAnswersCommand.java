package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.evals.AnswerEvaluation;
import dev.brain.evals.AnswerReport;
import dev.brain.evals.DocumentAnswerEvaluation;
import dev.brain.evals.DocumentAnswerReport;
import dev.brain.evals.EvalException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

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
final class EvalAnswersCommand implements Callable<Integer> {
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
    var name = EvalCommand.folderName(dir);
    var config = eval.brain.indexConfig();
    var cacheDir = data.resolve("eval-cache").resolve(EvalCommand.cacheName(dir, config));
    var err = cli.getErr();
    var out = cli.getOut();
    err.println("cache index: " + cacheDir);
    AnswerReport report;
    try (var progress = SyncProgress.forCommand(true, err);
        var brain = Brain.open(eval.brain.config().forEvaluation(cacheDir))) {
      report =
          new AnswerEvaluation(new AnswerEvaluation.Options(dir, maxQueries))
              .run(brain, progress, EvalCommand.tableLines(out, json));
    }
    var file = EvalCommand.writeReport(data, "answers-" + name, report);
    EvalCommand.printReport(cli, json, report, report.misses(), report.summary(), file);
    return 0;
  }

  /** The evaluation of a folder of documents with questions about them. */
  private int documents(picocli.CommandLine cli) throws IOException {
    var data = eval.brain.dataDir();
    var name = EvalCommand.folderName(dir);
    var config = eval.brain.indexConfig();
    var cacheDir = data.resolve("eval-cache").resolve(EvalCommand.cacheName(dir, config));
    DocumentAnswerEvaluation.Options options;
    try {
      options = DocumentAnswerEvaluation.layout(dir, questions, maxQueries);
    } catch (EvalException e) {
      return EvalCommand.badInput(cli, e);
    }
    var err = cli.getErr();
    var out = cli.getOut();
    err.println("cache index: " + cacheDir);
    DocumentAnswerReport report;
    try (var progress = SyncProgress.forCommand(true, err);
        var brain = Brain.open(eval.brain.config().forEvaluation(cacheDir))) {
      report =
          new DocumentAnswerEvaluation(options)
              .run(
                  brain,
                  progress,
                  line -> {
                    if (!json) {
                      out.println(line);
                    }
                  });
    } catch (EvalException e) {
      return EvalCommand.badInput(cli, e);
    }
    var file = EvalCommand.writeReport(data, "answers-" + name, report);
    EvalCommand.printReport(cli, json, report, report.misses(), report.summary(), file);
    return 0;
  }
}
