package dev.brain.server.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.Brain;
import dev.brain.index.IndexStatus;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code brain status}: per collection what is indexed, how the last sync went, what is watched. A
 * {@code brain serve} running on the data directory answers it when there is one ({@code --local}
 * reads the index here).
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "Show each collection: root, files, records, chunks, vector coverage, last sync, the"
          + " attachments it counted (by type), the files it skipped or could not read, the records it truncated and the parts of files it"
          + " left out (with reasons), and whether a watcher follows it.",
      "Also which server runs on the data directory (URL, pid, started by `brain serve` or in"
          + " the background, since when) and how to stop it.",
      "`brain stats` shows what the whole corpus holds."
    })
final class StatusCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--json", description = "Print the status as JSON.")
  boolean json;

  @picocli.CommandLine.Mixin ServerChoice serverChoice = new ServerChoice();

  @Override
  public Integer call() throws Exception {
    var answered = serverChoice.answer(brain, spec);
    if (answered.isPresent()) {
      return answered.get();
    }
    var out = TerminalText.writer(spec.commandLine().getOut());
    IndexStatus status = localStatus();
    if (json) {
      // The index's status, and the server on the data directory (null when none runs).
      var node = (ObjectNode) PrettyJson.MAPPER.valueToTree(status);
      node.set(
          "server", PrettyJson.MAPPER.valueToTree(ServerStatus.of(brain.dataDir()).orElse(null)));
      out.println(PrettyJson.pretty(node));
    } else {
      print(status, ServerStatus.line(brain.dataDir()), out);
    }
    return 0;
  }

  /**
   * The status read here: before the index's first commit (a first sync still running, or killed)
   * that is a state to describe, not an error; a data directory that does not exist stays an error.
   */
  private IndexStatus localStatus() throws IOException {
    if (brain.served == null && Files.isDirectory(brain.dataDir())) {
      var early = Brain.statusBeforeFirstCommit(brain.config());
      if (early.isPresent()) {
        return early.get();
      }
    }
    try (var lease = brain.useExisting()) {
      return lease.brain().indexStatus();
    }
  }

  /** Prints {@code s}, with {@code serverLine} (which server runs) after its first line. */
  static void print(IndexStatus s, String serverLine, PrintWriter out) {
    if (s.state() != IndexStatus.State.INDEXED) {
      printBeforeFirstCommit(s, serverLine, out);
      return;
    }
    out.printf(
        Locale.ROOT,
        "index %s: %d records, %d chunks, vector: %s, summaries: %s (%d of %d long"
            + " records); watching: %s%n",
        s.index(),
        s.records(),
        s.chunks(),
        vectors(s.vectorCoverage(), s.chunks()),
        percent(s.summaryCoverage()),
        s.summarizedRecords(),
        s.summaryCandidates(),
        s.watching() ? "yes" : "no");
    out.println(serverLine);
    printModelSummaries(s, out);
    if (s.collections().isEmpty()) {
      out.println("no collections yet; add a folder with `brain add PATH`");
    }
    for (var c : s.collections()) {
      out.println();
      out.println(
          TerminalText.line(c.name())
              + "  "
              + (c.root() == null ? "(not in brain.yaml)" : TerminalText.line(c.root()))
              + (c.root() != null && !c.rootExists() ? "  (folder missing)" : ""));
      out.printf(
          Locale.ROOT,
          "  %d files, %d records, %d chunks, vector: %s%s%n",
          c.files(),
          c.records(),
          c.chunks(),
          vectors(c.vectorCoverage(), c.chunks()),
          c.watching() ? ", watched" : "");
      out.println(
          "  last sync: "
              + (c.lastSyncAt() == null
                  ? "never (run `brain index`)"
                  : HumanTime.of(c.lastSyncAt())));
      if (c.attachments().total() > 0) {
        out.println("  " + SyncSummary.attachments(c.attachments()));
      }
      issues(out, "skipped", c.skipped());
      issues(out, "failed", c.failed());
      issues(out, "truncated", c.truncated());
      issues(out, "warnings", c.warnings());
      if (c.moreIssues() > 0) {
        out.println("  ... and " + c.moreIssues() + " more issues");
      }
    }
  }

  /** The summary model's coverage and failures, when one is configured. */
  private static void printModelSummaries(IndexStatus s, PrintWriter out) {
    if (s.summaryModel() == null) {
      return;
    }
    out.printf(
        Locale.ROOT,
        "model summaries (%s): %s (%d of %d long records)%s%n",
        s.summaryModel(),
        percent(s.modelSummaryCoverage()),
        s.modelSummarizedRecords(),
        s.modelSummaryCandidates(),
        s.modelSummaryFailed() == 0 ? "" : ", " + s.modelSummaryFailed() + " failed");
    for (var f : s.modelSummaryFailures()) {
      out.printf(
          Locale.ROOT,
          "  summary failed: %s: %s (attempt %d; tried again by a sync after %s)%n",
          TerminalText.line(f.key()),
          TerminalText.line(f.reason()),
          f.attempts(),
          f.retryAt() == null ? "-" : HumanTime.of(f.retryAt()));
    }
  }

  private static void printBeforeFirstCommit(IndexStatus s, String serverLine, PrintWriter out) {
    out.println(
        s.state() == IndexStatus.State.NOT_COMMITTED
            ? "index "
                + s.index()
                + ": nothing committed yet: the first sync is still running, or it was stopped"
                + " before its first commit; run `brain index` to complete it"
            : "index " + s.index() + ": nothing indexed yet");
    out.println(serverLine);
    if (s.collections().isEmpty()) {
      out.println("no collections yet; add a folder with `brain add PATH`");
    }
    for (var c : s.collections()) {
      out.println(
          TerminalText.line(c.name())
              + "  "
              + TerminalText.line(c.root())
              + (c.rootExists() ? "" : "  (folder missing)")
              + "  not indexed yet (run `brain index`)");
    }
  }

  private static void issues(
      PrintWriter out, String label, java.util.List<dev.brain.index.CollectionStatus.Issue> list) {
    if (list.isEmpty()) {
      return;
    }
    out.println("  " + label + " " + list.size() + ":");
    for (var issue : list) {
      out.println(
          "    " + TerminalText.line(issue.file()) + ": " + TerminalText.line(issue.reason()));
    }
  }

  /** "87% of chunks"; "no chunks" rather than a coverage of nothing. */
  static String vectors(double coverage, long chunks) {
    return chunks == 0 ? "no chunks" : percent(coverage) + " of chunks";
  }

  static String percent(double coverage) {
    return (int) Math.floor(100 * coverage) + "%";
  }
}
