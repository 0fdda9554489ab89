package dev.brain.research.synthesis;

import static java.util.stream.Collectors.joining;

import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.FollowUp;
import dev.brain.retrieval.EvidenceRow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The text of an extractive answer: each passage under a line naming where it comes from (the
 * user's notes or a saved source, the headings of its section, the record key as citation), then
 * the passage as Markdown (prose, list lines, fenced code); a last line names what the passages do
 * not mention. The statements for a question without evidence are here too.
 */
final class AnswerText {
  private AnswerText() {}

  /**
   * How a passage of the {@code ## Research} section brain wrote into a note is named: brain's
   * derived text, never "your notes".
   */
  static final String WRITTEN_BY_BRAIN =
      "text written by brain (its research section, not your notes)";

  /** Separates the parts of a heading path in a passage's header. */
  static final String PATH_SEPARATOR = " › ";

  /**
   * The answer quoting {@code passages}; {@code missing} names what none of them mentions and
   * {@code unoffered} the kinds of value the question asks for that none offers.
   */
  static String of(List<Passage> passages, List<String> missing, Set<AnswerShape.Kind> unoffered) {
    var t = new StringBuilder();
    var said = new HashSet<String>();
    for (Passage p : passages) {
      String body = shown(p.parts(), said);
      if (body.isEmpty()) {
        continue;
      }
      if (!t.isEmpty()) {
        t.append("\n\n");
      }
      t.append(header(p)).append("\n\n").append(body);
    }
    if (!missing.isEmpty() || !unoffered.isEmpty()) {
      t.append("\n\n").append(partly(passages.get(0), missing, unoffered));
    }
    return t.toString();
  }

  /**
   * The one plain line of a why follow-up whose notes give no reason, citing the note the earlier
   * answer drew on: "Your notes say what, not why: nothing in them gives a reason for “…”."
   */
  static String noReason(FollowUp up, Passage first) {
    String asked = up.previousQuestion().replaceAll("[\\s?!.]+$", "");
    String whose = "note".equals(first.text().row.sourceType()) ? "Your notes" : "Your sources";
    return whose
        + " say what, not why: nothing in them gives a reason for “"
        + asked
        + "” ["
        + first.key()
        + "].";
  }

  /**
   * The one plain line of a partial answer: what the first passage gives, and what nothing quoted
   * says or the kind of value asked for that nothing quoted offers. "Your notes give “Server
   * Options › server.cors” but nothing about “server.proxy”.", "… but no date."
   */
  static String partly(Passage first, List<String> missing, Set<AnswerShape.Kind> unoffered) {
    String place =
        first.headingPath().isEmpty()
            ? first.text().title()
            : String.join(PATH_SEPARATOR, first.headingPath());
    var gaps = new ArrayList<String>();
    if (!missing.isEmpty()) {
      gaps.add(
          "nothing about " + missing.stream().map(m -> "“" + m + "”").collect(joining(" or ")));
    }
    if (unoffered.contains(AnswerShape.Kind.DATE)) {
      gaps.add("no date");
    }
    if (unoffered.contains(AnswerShape.Kind.NUMBER)) {
      gaps.add("no figure");
    }
    String what = String.join(", and ", gaps);
    if (place == null || place.isBlank()) {
      return "These passages say " + what + ".";
    }
    String whose =
        "note".equals(first.text().row.sourceType()) ? "Your notes give" : "Your sources give";
    return whose + " “" + place + "” but " + what + ".";
  }

  /**
   * The parts of a passage as Markdown, each said once: a prose sentence or a part (a list, a code
   * block) already in {@code said}, shown by an earlier passage or earlier in this one, is left
   * out, and the rest is added to {@code said}. Two code spans written side by side with nothing
   * between them are alternatives a page shows one at a time ({@code `onActivated``activated`}):
   * they are shown apart.
   */
  static String shown(List<String> parts, Set<String> said) {
    var out = new ArrayList<String>();
    for (String part : parts) {
      boolean code = part.startsWith("```") || part.startsWith("~~~");
      String text = code ? part : GLUED.matcher(part).replaceAll("`$1` / ");
      if (code || text.contains("\n")) {
        if (said.add(normalized(text))) {
          out.add(text);
        }
        continue;
      }
      var kept = new ArrayList<String>();
      for (String sentence : Sentences.split(text)) {
        // A lead-in ("For example:") introduces what follows it, wherever it stands.
        if (Sentences.leadsIn(Sentences.plain(sentence)) || said.add(normalized(sentence))) {
          kept.add(sentence);
        }
      }
      if (!kept.isEmpty()) {
        out.add(kept.size() == Sentences.split(text).size() ? text : String.join(" ", kept));
      }
    }
    return String.join("\n\n", out);
  }

  /**
   * A code span followed at once by another (single backticks, on one line, neither starting nor
   * ending with a space): the closing backtick of a span before {@code `` x ``} is no opening.
   */
  private static final Pattern GLUED =
      Pattern.compile(
          "(?<!`)`([^`\\s](?:[^`\\n]*[^`\\s])?)`(?=`[^`\\s](?:[^`\\n]*[^`\\s])?`(?!`))");

  /** A text compared with what was said: its words, case and spacing aside. */
  private static String normalized(String text) {
    return Sentences.plain(text).toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").strip();
  }

  /** "From your notes, “Installation › Updating and Uninstalling” [key]:". */
  static String header(Passage p) {
    var h =
        new StringBuilder("From ")
            .append(p.text().brainWritten(p.first()) ? WRITTEN_BY_BRAIN : source(p.text().row));
    String place =
        p.headingPath().isEmpty() ? p.text().title() : String.join(PATH_SEPARATOR, p.headingPath());
    if (!place.isEmpty()) {
      h.append(", “").append(place).append('”');
    }
    return h.append(" [").append(p.key()).append("]:").toString();
  }

  /** What kind of source a row is, as a reader says it. */
  static String source(EvidenceRow row) {
    String role = row.evidenceRole();
    if ("brain_written".equals(role)) {
      return WRITTEN_BY_BRAIN;
    }
    if ("note".equals(row.sourceType())) {
      return "your notes";
    }
    String kind =
        switch (String.valueOf(row.sourceType())) {
          case "web" -> "web page";
          case "pdf" -> "PDF";
          case "feed_entry" -> "feed entry";
          default -> String.valueOf(row.sourceType()).replace('_', ' ');
        };
    String ocr = "ocr".equals(role) ? " (OCR)" : "";
    return "a saved " + kind + ocr;
  }

  /**
   * The statement for records that hold no sentence covering the question: which they are, and that
   * nothing is quoted.
   */
  static String nothingQuotable(List<EvidenceRow> rows) {
    var titles =
        rows.stream()
            .limit(3)
            .map(r -> r.title() == null || r.title().isBlank() ? r.sourceKey() : r.title())
            .map(t -> "“" + t + "”")
            .toList();
    return "No evidence: the closest records ("
        + String.join(", ", titles)
        + ") hold no sentence about what the question asks, so nothing is quoted. Try other words.";
  }

  /**
   * The plain statement for a pack without evidence, or for a question naming something the corpus
   * never mentions: what is missing, what was searched.
   */
  static String noEvidence(ResearchPack pack) {
    List<String> names = Names.absent(pack);
    var t =
        new StringBuilder(
            names.isEmpty()
                ? "No evidence: nothing in your corpus answers this question."
                : "No evidence: nothing in your corpus mentions "
                    + names.stream().map(n -> "“" + n + "”").collect(joining(" or "))
                    + ", so it cannot answer this question.");
    List<String> required =
        pack.queryPlan().requiredConcepts().stream().map(Concept::preferred).toList();
    t.append(" Searched for: ").append(String.join(", ", required)).append('.');
    if (!pack.coverage().absentConcepts().isEmpty()) {
      t.append(" These occur nowhere in the indexed records: ")
          .append(String.join(", ", pack.coverage().absentConcepts()))
          .append('.');
    }
    if (!pack.queryPlan().sourceTypes().isEmpty()) {
      t.append(" Only these source types were searched: ")
          .append(String.join(", ", pack.queryPlan().sourceTypes()))
          .append('.');
    }
    t.append(" No answer was made up; try other words or fewer filters.");
    return t.toString();
  }
}
