package dev.brain.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.evals.BeirReport;
import dev.brain.evals.CaseProposal;
import dev.brain.evals.EvalException;
import dev.brain.evals.ResearchEvalCase;
import dev.brain.evals.ResearchEvalReport;
import dev.brain.evals.ResearchEvaluation;
import dev.brain.index.IndexConfig;
import dev.brain.index.VectorFormat;
import dev.brain.models.EmbeddingModel;
import dev.brain.research.trace.TraceStore;
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
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code brain eval}: quality measurements. */
@Command(
    name = "eval",
    mixinStandardHelpOptions = true,
    description = "Measure retrieval, research, answer and note-research quality.",
    subcommands = {
      EvalBeirCommand.class,
      EvalCommand.Research.class,
      EvalCommand.Propose.class,
      EvalAnswersCommand.class,
      EvalNoteResearchCommand.class
    })
final class EvalCommand {

  @ParentCommand BrainCommand brain;

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

  /** {@code brain eval propose --from-trace RUN | --from-conversation FILE}. */
  @Command(
      name = "propose",
      mixinStandardHelpOptions = true,
      description = {
        "Draft an eval case from a saved research run: its question, continuity, answer status,"
            + " stop reason, judge verdict, cited and top evidence keys; answer text only with"
            + " --include-answer. The draft says \"reviewed\": false until you edit it.",
        "Or draft one case per answered turn of a saved Chat conversation (--from-conversation):"
            + " question, earlier questions, top evidence keys, cited keys, answer status.",
        "Prints the case lines, or appends them to --output FILE."
      })
  static final class Propose implements Callable<Integer> {
    @ParentCommand EvalCommand eval;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--from-trace",
        paramLabel = "RUN",
        description = "Run id, unique prefix, latest, or a trace directory.")
    String run;

    @Option(
        names = "--from-conversation",
        paramLabel = "FILE",
        description =
            "A saved Chat conversation: the Chat's session JSON ({\"turns\": [...]}) or a"
                + " conversation array of {question, cited_keys, evidence_keys}.")
    Path conversation;

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
      if ((run == null) == (conversation == null)) {
        return badInput(
            cli, new EvalException("give one of --from-trace RUN or --from-conversation FILE"));
      }
      if (conversation != null) {
        return fromConversation(cli);
      }
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

    private int fromConversation(picocli.CommandLine cli) {
      if (includeAnswer) {
        return badInput(
            cli,
            new EvalException(
                "--include-answer needs --from-trace: a conversation's answers are never copied"));
      }
      List<ResearchEvalCase> drafts;
      try {
        JsonNode saved;
        try {
          saved = new com.fasterxml.jackson.databind.ObjectMapper().readTree(conversation.toFile());
        } catch (IOException e) {
          throw new EvalException(
              "cannot read conversation " + conversation + ": " + e.getMessage());
        }
        if (saved == null) {
          throw new EvalException(conversation + ": empty file");
        }
        drafts = CaseProposal.fromConversation(saved, conversation.getFileName().toString());
        for (ResearchEvalCase draft : drafts) {
          if (output == null) {
            cli.getOut().println(CaseProposal.line(draft));
          } else {
            CaseProposal.append(draft, output);
          }
        }
      } catch (EvalException | IOException e) {
        return badInput(
            cli, e instanceof EvalException ee ? ee : new EvalException(e.getMessage()));
      }
      if (output != null) {
        cli.getErr().println(drafts.size() + " draft cases appended to " + output);
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
  static Consumer<String> tableLines(PrintWriter out, boolean json) {
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

  /** The name of an evaluated folder: its last path element. */
  static String folderName(Path dir) {
    return dir.toAbsolutePath().normalize().getFileName().toString();
  }

  /**
   * The cache index's folder name under {@code <data>/eval-cache/} for {@code dir} indexed with
   * {@code config}: {@code <folder>-<model>-<vector format>}.
   */
  static String cacheName(Path dir, IndexConfig config) {
    return cacheName(dir, config.model(), config.vectorFormat());
  }

  static String cacheName(Path dir, EmbeddingModel model, VectorFormat format) {
    return folderName(dir) + "-" + model.id() + "-" + format.name().toLowerCase(Locale.ROOT);
  }

  /**
   * Prints a report: as JSON alone on stdout, or its misses and summary; the path of the written
   * report goes to stderr either way.
   */
  static void printReport(
      picocli.CommandLine cli,
      boolean json,
      Object report,
      List<String> misses,
      String summary,
      Path file) {
    var out = cli.getOut();
    if (json) {
      out.println(PrettyJson.pretty(report));
    } else {
      if (!misses.isEmpty()) {
        out.println();
        out.println("misses (" + misses.size() + "):");
        misses.forEach(out::println);
      }
      out.println();
      out.println(summary);
    }
    cli.getErr().println("report: " + file);
  }

  /** Writes {@code report} to {@code <data>/eval-reports/<stem>-<time>.json}; returns the file. */
  static Path writeReport(Path data, String stem, Object report) throws IOException {
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
