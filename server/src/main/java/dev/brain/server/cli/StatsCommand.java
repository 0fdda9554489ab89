package dev.brain.server.cli;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code brain stats}: what the index holds. */
@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    description = "Show record counts by kind, source type and tag, index size and model.")
final class StatsCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--json", description = "Print the statistics as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    var out = TerminalText.out(spec);
    try (var opened = brain.openExisting()) {
      var stats = opened.stats();
      if (json) {
        out.println(PrettyJson.pretty(stats));
        return 0;
      }
      var meta = stats.metadata();
      out.printf(
          Locale.ROOT,
          "%d records, %d chunks, %.1f MB on disk; vector: %s%n",
          stats.records(),
          stats.chunks(),
          stats.sizeBytes() / 1e6,
          StatusCommand.vectors(stats.vectorCoverage(), stats.chunks()));
      out.printf(
          Locale.ROOT,
          "model %s (%d-d, %s vectors), schema v%d%n",
          meta.modelId(),
          meta.dimension(),
          meta.vectorFormat(),
          meta.schemaVersion());
      printCounts(out, "by kind", stats.byKind());
      printCounts(out, "by source type", stats.bySourceType());
      if (!stats.topTags().isEmpty()) {
        out.println("top tags (" + stats.distinctTags() + " distinct):");
        for (var tag : stats.topTags()) {
          out.printf(Locale.ROOT, "  %-28s %6d%n", TerminalText.line(tag.tag()), tag.count());
        }
      }
      return 0;
    }
  }

  private static void printCounts(java.io.PrintWriter out, String title, Map<String, Long> counts) {
    out.println(title + ":");
    counts.forEach(
        (name, count) ->
            out.printf(
                Locale.ROOT, "  %-28s %6d%n", TerminalText.line(String.valueOf(name)), count));
  }
}
