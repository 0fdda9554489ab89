package dev.brain.server.cli;

import dev.brain.SearchRequest;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.InvalidSearchException;
import dev.brain.retrieval.LaneReport;
import dev.brain.retrieval.SearchResult;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code brain search QUERY}: ranked evidence rows with the lanes that found each. */
@Command(
    name = "search",
    mixinStandardHelpOptions = true,
    description = {
      "Search the index with BM25, vectors and exact tags, fused; every row shows which lanes"
          + " found it, at what rank."
    })
final class SearchCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "QUERY", description = "What to search for.")
  List<String> words;

  @Option(
      names = "--lanes",
      paramLabel = "LANES",
      description =
          "Comma-separated lanes: bm25, vector, exact_tag, related. Default: bm25,vector,exact_tag.")
  String lanes;

  @Option(names = "--no-semantic", description = "Switch the vector lane off (lexical only).")
  boolean noSemantic;

  @Option(
      names = "--source-type",
      paramLabel = "TYPE",
      description = "Only this source type (repeatable).")
  List<String> sourceTypes = new ArrayList<>();

  @Option(
      names = "--kind",
      paramLabel = "KIND",
      description = "Only this kind: item or source (repeatable).")
  List<String> kinds = new ArrayList<>();

  @Option(
      names = "--tag",
      paramLabel = "TAG",
      description = "Only records with this tag (repeatable).")
  List<String> tags = new ArrayList<>();

  @Option(
      names = "--since",
      paramLabel = "YYYY-MM-DD",
      description = "Only records created on or after this day.")
  String since;

  @Option(
      names = "--until",
      paramLabel = "YYYY-MM-DD",
      description = "Only records created before this day.")
  String until;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description = "Rows to show. Default: retrieval.limit (10).")
  Integer limit;

  @Option(names = "--fusion", paramLabel = "MODE", description = "rrf (default) or normalized.")
  String fusion;

  @Option(names = "--json", description = "Print the full result as JSON.")
  boolean json;

  @picocli.CommandLine.Mixin ServerChoice serverChoice = new ServerChoice();

  /** The flag of each request field, for a usage error that names what was typed. */
  private static final Map<String, String> FLAGS =
      Map.ofEntries(
          Map.entry("query", "QUERY"),
          Map.entry("lanes", "--lanes"),
          Map.entry("semantic", "--no-semantic"),
          Map.entry("limit", "--limit"),
          Map.entry("fusion", "--fusion"),
          Map.entry("kinds", "--kind"),
          Map.entry("source_types", "--source-type"),
          Map.entry("tags", "--tag"),
          Map.entry("since", "--since"),
          Map.entry("until", "--until"),
          Map.entry("date_range", "--since/--until"));

  @Override
  public Integer call() throws Exception {
    var request =
        new SearchRequest(
            String.join(" ", words),
            lanes == null ? null : List.of(lanes),
            noSemantic ? false : null,
            limit,
            fusion,
            kinds,
            sourceTypes,
            tags,
            since,
            until);
    try {
      // Checked now, so a bad flag is a usage error before a server or the index is asked.
      request.validate();
      var answered = serverChoice.answer(brain, spec);
      if (answered.isPresent()) {
        return answered.get();
      }
      if (request.mayUseVector()) {
        brain.preloadEmbedderEarly(); // overlaps reading the configuration and opening the index
      }
      var result = search(request);
      var out = TerminalText.writer(spec.commandLine().getOut());
      if (json) {
        out.println(PrettyJson.pretty(result));
      } else {
        print(result, ObsidianLinks.of(brain), out);
      }
      return 0;
    } catch (InvalidSearchException e) {
      throw e.named(FLAGS.getOrDefault(e.field(), e.field()));
    }
  }

  /** The search completed from the configuration, here or in the server that runs this command. */
  private SearchResult search(SearchRequest request) throws java.io.IOException {
    try (var lease = brain.useExisting(request.mayUseVector())) {
      return lease.brain().search(request);
    }
  }

  static void print(SearchResult result, PrintWriter out) {
    print(result, ObsidianLinks.NONE, out);
  }

  /** The rows, with an {@code obsidian://} link under each note of an Obsidian vault. */
  static void print(SearchResult result, ObsidianLinks obsidian, PrintWriter out) {
    if (result.rows().isEmpty()) {
      out.println("no results for \"" + TerminalText.line(result.query()) + "\"");
    } else if (result.rows().stream().allMatch(EvidenceRow::weak)) {
      out.println(
          "nothing matched \""
              + TerminalText.line(result.query())
              + "\" well: every row below misses most of its words (found by meaning or a tag"
              + " alone)");
    }
    for (var row : result.rows()) {
      printRow(row, obsidian, out);
    }
    if (result.weakRowsLeftOut() > 0) {
      out.println(leftOut(result.weakRowsLeftOut()));
    }
    var lanes = new ArrayList<String>();
    for (LaneReport lane : result.lanes()) {
      lanes.add(
          String.format(
              Locale.ROOT,
              "%s %s%s",
              lane.lane().wireName(),
              lane.status().wireName(),
              lane.hits() > 0 ? " (" + lane.hits() + " hits, " + fmt(lane.tookMs()) + " ms)" : ""));
    }
    out.println("lanes: " + String.join(" · ", lanes));
  }

  private static void printRow(EvidenceRow row, ObsidianLinks obsidian, PrintWriter out) {
    var title = row.title() == null || row.title().isBlank() ? "" : "  " + row.title();
    out.printf(
        Locale.ROOT,
        "%2d. %s%s%s%n",
        row.rank(),
        TerminalText.line(row.sourceKey()),
        TerminalText.line(title),
        row.weak()
            ? "  [weak match: missing "
                + TerminalText.line(String.join(" ", row.missingTerms()))
                + "]"
            : "");
    var where = new ArrayList<String>();
    where.add(row.kind() + "/" + row.sourceType());
    if (row.notePath() != null) {
      where.add(row.notePath());
    } else if (row.url() != null) {
      where.add(row.url());
    }
    if (!row.userTags().isEmpty()) {
      where.add("#" + String.join(" #", row.userTags()));
    }
    where.add(ResearchOutput.role(row.evidenceRole()));
    if (row.relatedTo() != null) {
      where.add(row.relationship() + " " + row.relatedTo());
    }
    out.println("    " + TerminalText.line(String.join(" · ", where)));
    obsidian
        .link(row.sourceKey(), row.notePath())
        .ifPresent(link -> out.println("    " + TerminalText.line(link)));
    var lanes = new ArrayList<String>();
    for (var lane : row.retrieval().lanes()) {
      lanes.add(
          String.format(
              Locale.ROOT,
              "%s #%d (%s)",
              lane.lane().wireName(),
              lane.rank(),
              fmt(lane.rawScore())));
    }
    out.printf(
        Locale.ROOT,
        "    lanes: %s · fused %.4f%n",
        String.join(", ", lanes),
        row.retrieval().fusedScore());
    if (!row.signals().isEmpty() || !row.missingTerms().isEmpty()) {
      var why = new ArrayList<String>(row.signals());
      if (!row.missingTerms().isEmpty()) {
        why.add("missing: " + String.join(" ", row.missingTerms()));
      }
      out.println("    why: " + TerminalText.line(String.join(" · ", why)));
    }
    if (row.excerpt() != null && !row.excerpt().isBlank()) {
      out.println("    " + TerminalText.line(WHITESPACE.matcher(row.excerpt()).replaceAll(" ")));
    }
    out.println();
  }

  /** A run of whitespace, which an excerpt's line shows as one space. */
  private static final java.util.regex.Pattern WHITESPACE = java.util.regex.Pattern.compile("\\s+");

  /** The line that says how many weak rows the relevance floor left out. */
  static String leftOut(int count) {
    return count
        + (count == 1 ? " weaker row" : " weaker rows")
        + " left out: found by meaning alone, well below the best match"
        + " (retrieval.vector-floor: 0 in brain.yaml shows them)";
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, Math.abs(v) >= 10 ? "%.1f" : "%.3f", v);
  }
}
