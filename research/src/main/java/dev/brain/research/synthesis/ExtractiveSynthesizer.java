package dev.brain.research.synthesis;

import dev.brain.research.pack.ConceptMatch;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.QueryFamily;
import dev.brain.research.plan.Words;
import dev.brain.retrieval.EvidenceRow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The built-in, deterministic synthesizer: no model, no outside knowledge. It splits the included
 * evidence into sentences, selects those that cover the question's concepts (greedily, new required
 * concepts first, at most {@value #MAX_SENTENCES}), and writes them in rank order, each cited with
 * its record key, the user's notes apart from saved sources. It says plainly which required
 * concepts no selected sentence mentions, and when the pack holds no evidence it says only that.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class ExtractiveSynthesizer {

  /** Most sentences in an answer. */
  static final int MAX_SENTENCES = 6;

  /** Most sentences taken from the top row; other rows give at most two. */
  static final int MAX_PER_ROW = 3;

  /** Longest sentence quoted; longer ones are cut at a word boundary. */
  static final int MAX_SENTENCE_CHARS = 320;

  private static final Pattern SENTENCE_END =
      Pattern.compile("(?<=[.!?])\\s+(?=[\\p{Lu}\\p{N}\"“(*])|\\s+(?=[-•]\\s)|\\s+(?=\\d+\\.\\s)");
  private static final Pattern WIKILINK_ALIAS = Pattern.compile("\\[\\[([^\\]|]+)\\|([^\\]]+)]]");
  private static final Pattern WIKILINK = Pattern.compile("\\[\\[([^\\]]+)]]");
  private static final Pattern HEADING = Pattern.compile("(?:^|\\s)#{1,6}\\s");
  private static final Pattern TABLE_RULE = Pattern.compile("\\|?(?:\\s*:?-{3,}:?\\s*\\|)+");
  private static final Pattern URL = Pattern.compile("<?https?://\\S+>?");
  private static final Pattern FOLDER = Pattern.compile("\\bFolder: [^.]*?(?=$|\\.\\s)");

  private ExtractiveSynthesizer() {}

  /** A sentence of an evidence row with the concepts it covers. */
  private record Sentence(
      int rowIndex,
      int position,
      EvidenceRow row,
      String text,
      String next,
      Set<Concept> concepts) {

    long required() {
      return concepts.stream().filter(Concept::required).count();
    }
  }

  /** The extractive answer of a prepared synthesis. */
  public static SynthesisResult answer(PreparedSynthesis prepared) {
    ResearchPack pack = prepared.pack();
    if (!pack.hasEvidence()) {
      return result(prepared, noEvidence(pack), List.of());
    }
    List<Concept> concepts = pack.queryPlan().concepts();
    List<Sentence> candidates = sentences(prepared.includedRows(), concepts);
    List<Sentence> picked =
        pack.queryPlan().queryFamily() == QueryFamily.ENTITY_TOPIC_OVERVIEW
            ? overview(candidates)
            : cover(candidates, pack.queryPlan().requiredConcepts());
    String text =
        picked.isEmpty()
            ? closest(prepared.includedRows().get(0))
            : write(picked, pack.queryPlan().requiredConcepts());
    return result(prepared, text, Citations.of(pack, text));
  }

  private static SynthesisResult result(
      PreparedSynthesis prepared, String answer, List<Citation> citations) {
    return new SynthesisResult(
        SynthesisResult.SCHEMA_VERSION,
        answer,
        prepared.answerStatus(),
        prepared.answerWarnings(),
        prepared.truncation(),
        citations,
        prepared.promptVersion(),
        SynthesisResult.EXTRACTIVE,
        SynthesisResult.EXTRACTIVE,
        null);
  }

  /** The plain statement for a pack without evidence: what was searched, what is absent. */
  static String noEvidence(ResearchPack pack) {
    var t = new StringBuilder("No evidence: nothing in your corpus answers this question.");
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

  private static String closest(EvidenceRow row) {
    return "No sentence of the evidence states this in the question's words; the closest evidence"
        + " is "
        + (row.title() == null ? "" : "\"" + row.title() + "\" ")
        + "["
        + row.sourceKey()
        + "].";
  }

  private static List<Sentence> sentences(List<EvidenceRow> rows, List<Concept> concepts) {
    var out = new ArrayList<Sentence>();
    for (int i = 0; i < rows.size(); i++) {
      EvidenceRow row = rows.get(i);
      List<String> texts = split(row.excerpt(), knownHeadings(row));
      for (int p = 0; p < texts.size(); p++) {
        String text = texts.get(p);
        Set<String> stems = Words.stems(text);
        var covered = new LinkedHashSet<Concept>();
        for (Concept c : concepts) {
          // A row the user tagged with the concept is about it in every sentence.
          if (ConceptMatch.matches(c, stems, List.of()) || row.userTags().contains(c.preferred())) {
            covered.add(c);
          }
        }
        String next = p + 1 < texts.size() ? texts.get(p + 1) : null;
        out.add(new Sentence(i, p, row, text, next, covered));
      }
    }
    return out;
  }

  /** The title and heading path of a row: text that opens sections rather than stating facts. */
  private static List<String> knownHeadings(EvidenceRow row) {
    var out = new ArrayList<String>();
    if (row.title() != null && !row.title().isBlank()) {
      out.add(row.title().strip());
    }
    if (row.chunk() != null) {
      out.addAll(row.chunk().headingPath());
    }
    out.sort(Comparator.comparingInt(String::length).reversed());
    return out;
  }

  /**
   * Cleans an excerpt (Markdown emphasis, wikilinks, tables, URLs, bookmark folder lines) and
   * splits it into statements of useful length: headings and titles that open a sentence are
   * removed, questions are skipped.
   */
  static List<String> split(String excerpt, List<String> headings) {
    if (excerpt == null || excerpt.isBlank()) {
      return List.of();
    }
    String text = excerpt.strip().replaceAll("^…|…$", "");
    text = WIKILINK_ALIAS.matcher(text).replaceAll("$2");
    text = WIKILINK.matcher(text).replaceAll("$1");
    text = text.replace("**", "").replace("__", "").replace("`", "");
    text = TABLE_RULE.matcher(text).replaceAll(" ");
    text = text.replaceAll("\\|\\s*\\|", "; ").replace("|", " ");
    text = URL.matcher(text).replaceAll("");
    text = FOLDER.matcher(text).replaceAll(". ").replaceAll("\\.(\\s*\\.)+", ".");
    var out = new ArrayList<String>();
    for (String part : HEADING.split(text)) {
      for (String s : SENTENCE_END.split(part)) {
        String t = withoutHeading(s.strip().replaceFirst("^[-•;]\\s+", ""), headings);
        if (t.length() >= 12 && t.chars().anyMatch(Character::isLetter) && !t.endsWith("?")) {
          out.add(cut(t));
        }
      }
    }
    return out;
  }

  private static String withoutHeading(String sentence, List<String> headings) {
    for (String h : headings) {
      if (sentence.equalsIgnoreCase(h)) {
        return "";
      }
      if (sentence.length() > h.length() + 1 && sentence.startsWith(h + " ")) {
        return sentence.substring(h.length()).strip();
      }
    }
    return sentence;
  }

  private static String cut(String s) {
    if (s.length() <= MAX_SENTENCE_CHARS) {
      return s;
    }
    int space = s.lastIndexOf(' ', MAX_SENTENCE_CHARS - 1);
    return s.substring(0, space > 0 ? space : MAX_SENTENCE_CHARS - 1) + " …";
  }

  /** Greedy cover: per row in rank order, the sentence adding most uncovered required concepts. */
  private static List<Sentence> cover(List<Sentence> candidates, List<Concept> required) {
    var picked = new ArrayList<Sentence>();
    var covered = new LinkedHashSet<Concept>();
    int rows = candidates.stream().mapToInt(Sentence::rowIndex).max().orElse(-1) + 1;
    for (int round = 0; round < MAX_PER_ROW; round++) {
      for (int r = 0; r < rows && picked.size() < MAX_SENTENCES; r++) {
        int limit = r == 0 ? MAX_PER_ROW : 2;
        if (round >= limit) {
          continue;
        }
        Sentence best = best(candidates, r, covered, picked);
        if (best != null && worthTaking(best, covered, required, r)) {
          picked.add(best);
          best.concepts().stream().filter(Concept::required).forEach(covered::add);
        }
      }
    }
    picked.sort(Comparator.comparingInt(Sentence::rowIndex).thenComparingInt(Sentence::position));
    return picked;
  }

  private static Sentence best(
      List<Sentence> candidates, int row, Set<Concept> covered, List<Sentence> picked) {
    Sentence best = null;
    double bestScore = 0;
    for (Sentence s : candidates) {
      if (s.rowIndex() != row || picked.contains(s) || s.required() == 0) {
        continue;
      }
      long fresh = s.concepts().stream().filter(c -> c.required() && !covered.contains(c)).count();
      double score = 3 * fresh + s.required() + 0.5 * (s.concepts().size() - s.required());
      if (score > bestScore) {
        best = s;
        bestScore = score;
      }
    }
    return best;
  }

  /**
   * A sentence adds an uncovered concept, or is a strong one of the two top rows, and not of a row
   * the ranking found only a partial match: "Forum for home espresso: machine mods" restates the
   * espresso machine of a backflush question and says nothing about backflushing.
   */
  private static boolean worthTaking(
      Sentence s, Set<Concept> covered, List<Concept> required, int rowIndex) {
    boolean fresh = s.concepts().stream().anyMatch(c -> c.required() && !covered.contains(c));
    boolean strong = s.required() * 2 >= Math.max(1, required.size());
    return fresh || strong && rowIndex < 2 && !ConceptMatch.isPartial(s.row());
  }

  /** For a broad topic: the most on-topic sentence of each top row. */
  private static List<Sentence> overview(List<Sentence> candidates) {
    var picked = new ArrayList<Sentence>();
    int rows = candidates.stream().mapToInt(Sentence::rowIndex).max().orElse(-1) + 1;
    for (int r = 0; r < rows && picked.size() < MAX_SENTENCES; r++) {
      Sentence best = null;
      for (Sentence s : candidates) {
        if (s.rowIndex() == r
            && s.required() > 0
            && (best == null || s.concepts().size() > best.concepts().size())) {
          best = s;
        }
      }
      if (best != null) {
        picked.add(best);
      }
    }
    return picked;
  }

  private static String write(List<Sentence> picked, List<Concept> required) {
    var notes = new ArrayList<Sentence>();
    var sources = new ArrayList<Sentence>();
    for (Sentence s : picked) {
      ("note".equals(s.row().sourceType()) ? notes : sources).add(s);
    }
    boolean notesFirst =
        !notes.isEmpty()
            && (sources.isEmpty() || notes.get(0).rowIndex() < sources.get(0).rowIndex());
    var t = new StringBuilder();
    if (notesFirst) {
      section(t, "From your notes:", notes);
      section(t, "From saved sources:", sources);
    } else {
      section(t, "From saved sources:", sources);
      section(t, "From your notes:", notes);
    }
    var missing = new ArrayList<String>();
    for (Concept c : required) {
      if (picked.stream().noneMatch(s -> s.concepts().contains(c))) {
        missing.add(c.preferred());
      }
    }
    if (!missing.isEmpty()) {
      t.append("\nThe evidence is incomplete: nothing quoted here mentions ")
          .append(String.join(", ", missing))
          .append(".\n");
    }
    return t.toString().strip();
  }

  private static void section(StringBuilder t, String heading, List<Sentence> sentences) {
    if (sentences.isEmpty()) {
      return;
    }
    if (!t.isEmpty()) {
      t.append('\n');
    }
    t.append(heading).append('\n');
    var shown = new LinkedHashSet<String>();
    for (Sentence s : sentences) {
      if (!shown.add(s.row().sourceKey() + "\u0000" + s.text())) {
        continue; // already shown as the continuation of a sentence ending with a colon
      }
      t.append("- ").append(s.text());
      if (s.text().endsWith(":") && s.next() != null) {
        t.append(' ').append(s.next());
        shown.add(s.row().sourceKey() + "\u0000" + s.next());
      }
      String label = label(s.row());
      if (!label.isEmpty()) {
        t.append(" (").append(label).append(')');
      }
      t.append(" [").append(s.row().sourceKey()).append("]\n");
    }
  }

  /** What kind of source a quoted sentence comes from, when it is not a raw note. */
  private static String label(EvidenceRow row) {
    String role = row.evidenceRole();
    if ("transcript".equals(role) || "ocr".equals(role)) {
      return role.equals(row.sourceType()) ? role : row.sourceType() + ", " + role;
    }
    if ("summary".equals(role)) {
      return "derived summary";
    }
    return "note".equals(row.sourceType()) ? "" : row.sourceType();
  }
}
