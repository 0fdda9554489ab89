package dev.brain.server.cli;

import dev.brain.index.IndexMetadata;
import dev.brain.index.SyncReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code brain index PATH...}: imports files and folders into the index, incrementally. */
@Command(
    name = "index",
    mixinStandardHelpOptions = true,
    description = {
      "Import notes, pages, PDFs, feeds, bookmarks, transcripts and JSONL records into the index.",
      "Re-running is incremental: unchanged records are skipped without re-embedding, changed ones"
          + " replaced, and records of files that disappeared from PATH are deleted."
    })
final class IndexCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "PATH", description = "Files or folders to import.")
  List<Path> paths;

  @Option(
      names = "--no-progress",
      description =
          "Show no progress (a bar on a terminal; otherwise a line on stderr every 15 seconds;"
              + " none with --json).")
  boolean noProgress;

  @Option(names = "--json", description = "Print the sync report as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    var roots = new ArrayList<Path>();
    for (var path : paths) {
      if (!Files.exists(path)) {
        throw new picocli.CommandLine.ParameterException(
            spec.commandLine(), "no such file or folder: " + path);
      }
      roots.add(path.toAbsolutePath().normalize());
    }
    var out = spec.commandLine().getOut();
    SyncReport report;
    IndexMetadata metadata;
    try (var opened = brain.open()) {
      try (var progress =
          SyncProgress.forCommand(!noProgress && !json, spec.commandLine().getErr())) {
        report = opened.index(roots, progress);
      }
      metadata = opened.stats().metadata();
    }
    if (json) {
      out.println(Json.pretty(report));
    } else {
      SyncSummary.print(report, metadata, out);
    }
    return report.failed().isEmpty() ? 0 : BrainCommand.EXIT_ERROR;
  }
}
