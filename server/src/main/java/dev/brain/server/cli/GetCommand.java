package dev.brain.server.cli;

import dev.brain.index.RecordDetail;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code brain get KEY}: one record with its chunks, links and backlinks. */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    description =
        "Show one record by key (e.g. note:notes/coffee/espresso.md) with its chunks and links.")
final class GetCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "KEY", description = "The record key, prefix included.")
  String key;

  @Option(names = "--json", description = "Print the record as JSON.")
  boolean json;

  @picocli.CommandLine.Mixin ServerChoice serverChoice = new ServerChoice();

  @Override
  public Integer call() throws Exception {
    var answered = serverChoice.answer(brain, spec);
    if (answered.isPresent()) {
      return answered.get();
    }
    var out = TerminalText.writer(spec.commandLine().getOut());
    java.util.Optional<RecordDetail> detail;
    String missing = null;
    try (var lease = brain.useExisting()) {
      detail = lease.brain().get(key);
      if (detail.isEmpty()) {
        missing = lease.brain().noRecordMessage(key);
      }
    }
    if (detail.isEmpty()) {
      spec.commandLine().getErr().println("brain: " + TerminalText.line(missing));
      return BrainCommand.EXIT_ERROR;
    }
    if (json) {
      out.println(PrettyJson.pretty(detail.get()));
    } else {
      print(detail.get(), out);
    }
    return 0;
  }

  private static void print(RecordDetail detail, PrintWriter out) {
    var r = detail.record();
    out.println(line(r.key()));
    out.println("  title:       " + line(nullToDash(r.title())));
    out.println("  kind:        " + r.kind() + " / " + r.sourceType());
    if (r.path() != null) {
      out.println("  path:        " + line(r.path()));
    }
    if (r.url() != null) {
      out.println("  url:         " + line(r.url()));
    }
    if (r.author() != null) {
      out.println("  author:      " + line(r.author()));
    }
    if (!r.tags().isEmpty()) {
      out.println("  tags:        " + line(String.join(", ", r.tags())));
    }
    if (r.createdAt() != null) {
      String source = r.dateSource() == null ? "" : " (" + r.dateSource() + ")";
      out.println("  created:     " + r.createdAt() + source);
    }
    if (r.updatedAt() != null) {
      out.println("  updated:     " + r.updatedAt());
    }
    if (r.publishedAt() != null) {
      out.println("  published:   " + r.publishedAt());
    }
    if (r.summary() != null) {
      out.println("  summary:     " + line(abbreviate(r.summary().replaceAll("\\s+", " "), 300)));
    }
    var reached = detail.linkedKeys();
    out.println("  links:       " + (reached.isEmpty() ? "-" : line(String.join(", ", reached))));
    for (var link : detail.unresolvedLinks()) {
      out.println("  unresolved:  " + line(shown(link) + " (" + link.unresolved() + ")"));
    }
    out.println(
        "  backlinks:   "
            + (detail.backlinks().isEmpty() ? "-" : line(String.join(", ", detail.backlinks()))));
    out.println("  chunks:      " + detail.chunks().size());
    for (var c : detail.chunks()) {
      var heading =
          c.headingPath().isEmpty() ? "" : " " + line(String.join(" > ", c.headingPath()));
      out.printf(
          "  [%s] %s chars %d-%d%s%n",
          c.chunkId(), c.role().wireName(), c.startChar(), c.endChar(), heading);
      out.println("      " + line(abbreviate(c.text().replaceAll("\\s+", " "), 160)));
    }
  }

  /** An unresolved link as the note writes it: {@code [[Lost note]]}, or the web address. */
  private static String shown(RecordDetail.Link link) {
    return link.key().startsWith("note:") ? "[[" + link.text() + "]]" : link.text();
  }

  private static String line(String s) {
    return TerminalText.line(s);
  }

  private static String nullToDash(String s) {
    return s == null || s.isBlank() ? "-" : s;
  }

  private static String abbreviate(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }
}
