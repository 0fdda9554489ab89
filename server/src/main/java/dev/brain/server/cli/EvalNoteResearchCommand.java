package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.evals.EvalException;
import dev.brain.evals.NoteResearchEvaluation;
import dev.brain.evals.NoteResearchReport;
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

/** {@code brain eval note-research VAULT}. */
@Command(
    name = "note-research",
    mixinStandardHelpOptions = true,
    description = {
      "Score 'brain note research' on a vault: a copy of the vault (and of every --with folder,"
          + " as a collection beside it) is indexed into <data>/eval-cache/, then each note is"
          + " researched twice without a chat model, each run writing its section into the copy."
          + " Counts, over the first sections: sources cited twice in a section, excerpts cut"
          + " (an ellipsis, a list marker inside, two blocks of the note, or the middle of a"
          + " sentence), wikilinks to notes the vault does not hold, filler lines; and how many"
          + " second runs wrote the same section. Your vault is never written.",
      "A JSON report with every section is written to <data>/eval-reports/."
    })
final class EvalNoteResearchCommand implements Callable<Integer> {
  @ParentCommand EvalCommand eval;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "VAULT", description = "The vault (a folder of notes).")
  Path vault;

  @Option(
      names = "--with",
      paramLabel = "DIR",
      description = "Another folder indexed beside the vault as a collection (repeatable).")
  List<Path> others = List.of();

  @Option(
      names = "--max-notes",
      paramLabel = "N",
      description = "Research N notes spread evenly over the vault (0 = all). Default: 0.")
  int maxNotes;

  @Option(names = "--json", description = "Print the report as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    var cli = spec.commandLine();
    for (Path dir : concat(vault, others)) {
      if (!Files.isDirectory(dir)) {
        throw new ParameterException(cli, "not a folder: " + dir);
      }
    }
    if (maxNotes < 0) {
      throw new ParameterException(cli, "--max-notes must be 0 or more, not " + maxNotes);
    }
    var data = eval.brain.dataDir();
    var config = eval.brain.indexConfig();
    String stem = EvalCommand.cacheName(vault, config);
    for (Path other : others) {
      stem = EvalCommand.folderName(other) + "+" + stem;
    }
    var cacheDir = data.resolve("eval-cache").resolve("note-research-" + stem);
    var err = cli.getErr();
    var out = cli.getOut();
    err.println("cache index: " + cacheDir);
    var base = eval.brain.config().forEvaluation(cacheDir);
    // Without a chat model: the rubric measures brain's own (extractive) section, repeatably.
    var evalConfig = base.withChat(base.chat().withModel("extractive"));
    NoteResearchReport report;
    try (var progress = SyncProgress.forCommand(true, err);
        var brain = Brain.open(evalConfig)) {
      report =
          new NoteResearchEvaluation(new NoteResearchEvaluation.Options(vault, others, maxNotes))
              .run(
                  brain,
                  progress,
                  line -> {
                    if (!json) {
                      out.println(line);
                      out.flush();
                    }
                  });
    } catch (EvalException e) {
      return EvalCommand.badInput(cli, e);
    }
    var file =
        EvalCommand.writeReport(data, "note-research-" + EvalCommand.folderName(vault), report);
    EvalCommand.printReport(cli, json, report, report.misses(), report.summary(), file);
    return 0;
  }

  private static List<Path> concat(Path first, List<Path> rest) {
    var all = new java.util.ArrayList<Path>();
    all.add(first);
    all.addAll(rest);
    return all;
  }
}
