package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.index.IndexLockedException;
import dev.brain.research.note.Depth;
import dev.brain.research.note.NoteRequest;
import dev.brain.research.note.NoteResearchException;
import dev.brain.research.note.NoteResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code brain note ...}: commands on one note of a collection. */
@Command(
    name = "note",
    mixinStandardHelpOptions = true,
    description = "Commands on one note of a collection.",
    subcommands = {NoteCommand.Research.class})
final class NoteCommand {

  @ParentCommand BrainCommand brain;

  /**
   * {@code brain note research PATH}: researches a note and writes its {@code ## Research} section
   * (brain's one explicit write path). The section goes to stdout, what happened to stderr. Exit
   * codes: 0 written (or printed with {@code --dry-run}), 1 refused or failed (nothing written), 2
   * usage.
   */
  @Command(
      name = "research",
      mixinStandardHelpOptions = true,
      description = {
        "Research a note: find its topics, research each in your collections (and the web when"
            + " note.web-search-url is configured), and write a cited '## Research' section into"
            + " the note, replacing brain's older one; nothing else in the file changes.",
        "A '## Research' section brain did not write (or that was edited since) is kept and the"
            + " run refused, unless --replace is given.",
        "Only .md, .markdown, .mdx and .txt files inside a collection. The section is printed; with"
            + " --dry-run it is only printed."
      })
  static final class Research implements Callable<Integer> {

    @ParentCommand NoteCommand note;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "PATH", description = "The note file.")
    Path path;

    @Option(
        names = "--depth",
        paramLabel = "shallow|deep",
        defaultValue = "shallow",
        description = "deep also reads the top 2 web pages per topic (default: ${DEFAULT-VALUE}).")
    String depth;

    @Option(names = "--focus", paramLabel = "TEXT", description = "Narrow the topics to this.")
    String focus;

    @Option(names = "--dry-run", description = "Print the section; write nothing.")
    boolean dryRun;

    @Option(
        names = "--replace",
        description =
            "Replace a '## Research' section brain did not write, or edited since (default: refuse"
                + " and keep it).")
    boolean replace;

    @Option(names = "--json", description = "Print the whole result as JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = TerminalText.out(spec);
      PrintWriter err = TerminalText.err(spec);
      NoteRequest request;
      try {
        request = new NoteRequest(path, Depth.of(depth), focus, dryRun, replace);
      } catch (NoteResearchException e) {
        err.println("brain: " + e.getMessage());
        return BrainCommand.EXIT_USAGE;
      }
      NoteResult result;
      try (Brain brain = open(request.dryRun())) {
        result = brain.researchNote(request);
      } catch (NoteResearchException e) {
        err.println("brain: " + e.getMessage());
        return BrainCommand.EXIT_ERROR;
      }
      if (json) {
        out.println(PrettyJson.pretty(result));
      } else {
        out.print(result.section());
        out.flush();
        summary(result, err);
      }
      return 0;
    }

    /** Read-only for a dry run; else the writer, or read-only when another process has it. */
    private Brain open(boolean readOnly) throws IOException {
      if (readOnly) {
        return note.brain.openExisting();
      }
      try {
        return note.brain.open();
      } catch (IndexLockedException e) {
        return note.brain.openExisting();
      }
    }

    private static void summary(NoteResult r, PrintWriter err) {
      for (String s : r.skipped()) {
        err.println("brain: skipped: " + s);
      }
      err.println(
          "brain: "
              + r.topics().size()
              + " topics ("
              + r.topicSource()
              + "), section by "
              + r.synthesizer()
              + (r.dryRun() ? "; dry run, nothing written" : "; written to " + r.path()));
      if (r.written()) {
        err.println("brain: re-index: " + r.reindex());
      }
      if (r.traceId() != null) {
        err.println("brain: trace " + r.traceId());
      }
    }
  }
}
