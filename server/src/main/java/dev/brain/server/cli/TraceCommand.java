package dev.brain.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.evals.TraceDiff;
import dev.brain.models.chat.ChatModel;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.run.RunSettings;
import dev.brain.research.trace.PruneReport;
import dev.brain.research.trace.Redactor;
import dev.brain.research.trace.RetentionPolicy;
import dev.brain.research.trace.TraceStore;
import dev.brain.research.trace.TraceSummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code brain trace list|show|diff|prune}: the saved research runs of the data directory ({@code
 * <data>/research-runs}). A RUN is a run id, a unique prefix of one, {@code latest}, or a trace
 * directory's path.
 */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    description = {
      "Saved research runs: list them, show one as a document, run one again and diff its"
          + " evidence, or prune old ones."
    },
    subcommands = {
      TraceCommand.ListRuns.class,
      TraceCommand.Show.class,
      TraceCommand.Diff.class,
      TraceCommand.Prune.class
    })
final class TraceCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 0;
  }

  /** The trace store of the data directory, redacting the configured API key too. */
  static TraceStore store(BrainCommand brain) {
    return Brain.traces(brain.config());
  }

  private static Path find(TraceStore store, String ref) throws IOException {
    return store
        .find(ref)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "no saved run '"
                        + ref
                        + "' in "
                        + store.root()
                        + "; list them with 'brain trace list'"));
  }

  /** {@code brain trace list}. */
  @Command(name = "list", mixinStandardHelpOptions = true, description = "List saved runs.")
  static final class ListRuns implements Callable<Integer> {
    @ParentCommand TraceCommand trace;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--limit", paramLabel = "N", description = "Newest runs to list. Default: 20.")
    int limit = 20;

    @Option(names = "--json", description = "Print the list as JSON.")
    boolean json;

    @Override
    public Integer call() throws IOException {
      TraceStore store = store(trace.brain);
      List<TraceSummary> runs = store.list();
      PrintWriter out = TerminalText.writer(spec.commandLine().getOut());
      List<TraceSummary> shown = runs.subList(0, Math.min(limit, runs.size()));
      if (json) {
        out.println(PrettyJson.pretty(shown));
        return 0;
      }
      if (runs.isEmpty()) {
        out.println("no saved runs in " + store.root());
        return 0;
      }
      for (TraceSummary s : shown) {
        out.printf(
            Locale.ROOT,
            "%s  %-32s %-16s %6.1fs  %s%n",
            s.runId(),
            stopColumn(s),
            s.status() == null ? "" : s.status(),
            s.durationMs() / 1000.0,
            s.question() == null
                ? (s.error() == null ? "" : TerminalText.line(s.error()))
                : oneLine(s.question(), 70));
      }
      if (runs.size() > shown.size()) {
        out.println("… " + (runs.size() - shown.size()) + " older runs (--limit N)");
      }
      return 0;
    }
  }

  /** {@code brain trace show RUN}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Print a saved run as a document (run.md), or its run.json with --json.")
  static final class Show implements Callable<Integer> {
    @ParentCommand TraceCommand trace;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(
        index = "0",
        paramLabel = "RUN",
        defaultValue = "latest",
        description = "Run id, unique prefix, latest, or a trace directory. Default: latest.")
    String run;

    @Option(names = "--json", description = "Print run.json instead of run.md.")
    boolean json;

    @Override
    public Integer call() throws IOException {
      TraceStore store = store(trace.brain);
      Path dir = find(store, run);
      PrintWriter out = TerminalText.writer(spec.commandLine().getOut());
      JsonNode saved = store.readJson(dir); // refuses a version this brain does not read
      // Escape sequences in a question or excerpt must not reach the terminal.
      out.print(
          Redactor.withoutControlCharacters(
              json ? PrettyJson.pretty(saved) + "\n" : store.readMarkdown(dir)));
      if (json) {
        return 0; // JSON alone on stdout
      }
      out.println();
      out.println("trace: " + dir);
      return 0;
    }
  }

  /** {@code brain trace diff RUN}. */
  @Command(
      name = "diff",
      mixinStandardHelpOptions = true,
      description = {
        "Run a saved run's question again with its options (and its models, unless overridden)"
            + " and show added, removed and reordered evidence keys, the stop reasons, and how the"
            + " answer and its citations changed."
      })
  static final class Diff implements Callable<Integer> {
    @ParentCommand TraceCommand trace;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RUN", description = "Run id, unique prefix, or latest.")
    String run;

    @Option(
        names = "--model",
        paramLabel = "SPEC",
        description = "Answer with this model instead of the saved run's (extractive for none).")
    String model;

    @Option(
        names = "--planner-model",
        paramLabel = "SPEC",
        description = "Plan with this model instead of the saved run's (extractive for none).")
    String plannerModel;

    @Option(names = "--save-trace", description = "Save the new run as a trace too.")
    boolean saveTrace;

    @Option(names = "--json", description = "Print the diff as JSON.")
    boolean json;

    @Override
    public Integer call() throws IOException {
      TraceStore store = store(trace.brain);
      JsonNode saved = store.readJson(find(store, run));
      if ("agent".equals(saved.path("kind").asText())) {
        throw new IllegalArgumentException(
            "run " + run + " is an agent run; 'brain trace diff' re-runs research runs only");
      }
      RunSettings settings = RunSettings.fromJson(saved.path("settings"));
      String answerSpec = model != null ? model : settings.synthesisModel();
      String planSpec = plannerModel != null ? plannerModel : settings.plannerModel();
      try (var opened = trace.brain.openExisting()) {
        ChatModel planner = open(opened, planSpec);
        ChatModel answerer = open(opened, answerSpec);
        RunRequest request =
            TraceDiff.rerun(saved)
                .withPlanner(planner)
                .withModel(answerer)
                .withSurface("cli")
                .withTrace(saveTrace);
        RunResult now = opened.run(request, new RunTimeline(spec.commandLine().getErr()));
        TraceDiff diff = TraceDiff.of(saved, now);
        PrintWriter out = TerminalText.writer(spec.commandLine().getOut());
        if (json) {
          out.println(PrettyJson.pretty(diff));
        } else {
          print(diff, now, out);
        }
        return 0;
      }
    }

    private static void print(TraceDiff d, RunResult now, PrintWriter out) {
      out.println("run " + d.runId() + ": " + oneLine(d.question(), 100));
      out.printf(
          Locale.ROOT,
          "stop reason: %s -> %s · status: %s -> %s%n",
          d.stopReasonBefore(),
          d.stopReasonAfter(),
          d.statusBefore(),
          d.statusAfter());
      if (d.unchanged()) {
        out.println("evidence unchanged: the same " + d.after().size() + " keys in the same order");
      }
      for (String k : d.added()) {
        out.println("+ " + TerminalText.line(k) + "  (now #" + (d.after().indexOf(k) + 1) + ")");
      }
      for (String k : d.removed()) {
        out.println("- " + TerminalText.line(k) + "  (was #" + (d.before().indexOf(k) + 1) + ")");
      }
      for (TraceDiff.Move m : d.reordered()) {
        out.println(
            "~ "
                + TerminalText.line(m.sourceKey())
                + "  #"
                + m.beforeRank()
                + " -> #"
                + m.afterRank());
      }
      TraceDiff.AnswerDiff a = d.answer();
      if (!a.changed() && !a.citationsChanged()) {
        out.println("answer unchanged");
      } else {
        out.println(a.changed() ? "answer changed:" : "answer text unchanged");
        if (a.changed()) {
          out.println("  before: " + oneLine(String.valueOf(a.before()), 160));
          out.println("  after:  " + oneLine(String.valueOf(a.after()), 160));
        }
        for (String k : a.citationsAdded()) {
          out.println("+ cites " + TerminalText.line(k));
        }
        for (String k : a.citationsRemoved()) {
          out.println("- cites " + TerminalText.line(k));
        }
        if (a.citationsAdded().isEmpty()
            && a.citationsRemoved().isEmpty()
            && a.citationsChanged()) {
          out.println(
              "~ citations reordered: " + a.citationsBefore() + " -> " + a.citationsAfter());
        }
      }
      if (now.tracePath() != null) {
        out.println("new trace: " + now.tracePath());
      }
    }

    private static ChatModel open(Brain brain, String spec) {
      return spec == null || spec.isBlank() ? null : brain.chatModel(spec);
    }
  }

  /** {@code brain trace prune}. */
  @Command(
      name = "prune",
      mixinStandardHelpOptions = true,
      description = {
        "Delete saved runs outside the retention: a run is kept when it is among the newest"
            + " --keep or younger than --max-age-days."
      })
  static final class Prune implements Callable<Integer> {
    @ParentCommand TraceCommand trace;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--keep",
        paramLabel = "N",
        description =
            "Newest runs always kept. Default: traces.keep-newest in brain.yaml, else "
                + RetentionPolicy.DEFAULT_KEEP_NEWEST
                + ".")
    Integer keep;

    @Option(
        names = "--max-age-days",
        paramLabel = "DAYS",
        description =
            "Runs younger than this are always kept. Default: traces.max-age in brain.yaml, else"
                + " 180.")
    Long maxAgeDays;

    @Override
    public Integer call() throws IOException {
      var flags = new ArrayList<BrainConfig.Flag>();
      if (keep != null) {
        flags.add(new BrainConfig.Flag("traces.keep-newest", String.valueOf(keep), "--keep"));
      }
      if (maxAgeDays != null) {
        flags.add(new BrainConfig.Flag("traces.max-age", maxAgeDays + "d", "--max-age-days"));
      }
      PruneReport report =
          Brain.traces(trace.brain.config(flags.toArray(BrainConfig.Flag[]::new))).prune();
      spec.commandLine()
          .getOut()
          .printf(
              Locale.ROOT,
              "deleted %d of %d saved runs (kept %d)%s%n",
              report.deleted(),
              report.examined(),
              report.kept(),
              report.staleTemporary() > 0
                  ? "; removed " + report.staleTemporary() + " leftovers of crashed runs"
                  : "");
      return 0;
    }
  }

  private static String oneLine(String s, int max) {
    String t = TerminalText.line(s.replaceAll("\\s+", " ").strip());
    return t.length() <= max ? t : t.substring(0, max - 1) + "…";
  }

  /**
   * What the listing shows as a run's stop: its stop reason; a note's research, which is not one
   * run and has none, as {@code note_research}; a trace that cannot be read as {@code
   * (unreadable)}.
   */
  private static String stopColumn(TraceSummary s) {
    if (s.stopReason() != null) {
      return s.stopReason();
    }
    if (s.error() == null && "note".equals(s.surface())) {
      return "note_research";
    }
    return s.error() == null ? "" : "(unreadable)";
  }
}
