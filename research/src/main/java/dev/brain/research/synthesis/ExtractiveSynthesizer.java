package dev.brain.research.synthesis;

import dev.brain.research.pack.ConceptMatch;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.QueryFamily;
import dev.brain.research.plan.Words;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The built-in, deterministic synthesizer: no model, no outside knowledge. It renders the included
 * evidence from Markdown to the text a reader sees (no callout, code-fence or table syntax,
 * wikilinks as their visible text; see {@link EvidenceSentences}), splits it into whole sentences,
 * selects those that cover the question's concepts (greedily, new required concepts first, at most
 * {@value #MAX_SENTENCES}, preferring among equals the sentence that offers what the question asks
 * for: a date for "when", a figure for "how many"; see {@link AnswerShape}), and writes them with
 * that sentence first and the rest in rank order, each cited with its record key, the user's notes
 * apart from saved sources. It says plainly which required concepts no selected sentence mentions,
 * and when the pack holds no evidence it says only that.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class ExtractiveSynthesizer {

  /** Most sentences in an answer. */
  static final int MAX_SENTENCES = 6;

  /** Most sentences taken from the top row; other rows give at most two. */
  static final int MAX_PER_ROW = 3;

  private ExtractiveSynthesizer() {}

  /** A sentence of an evidence row with the concepts it covers. */
  private record Sentence(
      int rowIndex,
      int position,
      EvidenceRow row,
      String text,
      String next,
      Set<Concept> concepts,
      boolean offers) {

    long required() {
      return concepts.stream().filter(Concept::required).count();
    }
  }

  /** The extractive answer of a prepared synthesis, quoting from the rows' excerpts alone. */
  public static SynthesisResult answer(PreparedSynthesis prepared) {
    return answer(prepared, key -> Optional.empty());
  }

  /**
   * The extractive answer of a prepared synthesis, quoting whole sentences of the retrieved chunks
   * in the stored text the {@code retriever} reads (the excerpts where a text cannot be read).
   */
  public static SynthesisResult answer(PreparedSynthesis prepared, Retriever retriever) {
    return answer(
        prepared,
        key -> {
          try {
            return retriever.get(key).map(d -> d.record().text());
          } catch (IOException | RuntimeException e) {
            return Optional.empty();
          }
        });
  }

  /** The extractive answer, reading a record's stored text by key through {@code rawText}. */
  static SynthesisResult answer(
      PreparedSynthesis prepared, Function<String, Optional<String>> rawText) {
    ResearchPack pack = prepared.pack();
    if (!pack.hasEvidence()) {
      return result(prepared, noEvidence(pack), List.of());
    }
    List<Concept> concepts = pack.queryPlan().concepts();
    AnswerShape.Kind kind = AnswerShape.of(pack.question());
    List<Sentence> candidates =
        sentences(prepared.includedRows(), concepts, rawText, pack.question(), kind);
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

  private static List<Sentence> sentences(
      List<EvidenceRow> rows,
      List<Concept> concepts,
      Function<String, Optional<String>> rawText,
      String question,
      AnswerShape.Kind kind) {
    var out = new ArrayList<Sentence>();
    for (int i = 0; i < rows.size(); i++) {
      EvidenceRow row = rows.get(i);
      List<String> headings = knownHeadings(row);
      List<EvidenceSentences.Quote> quotes =
          EvidenceSentences.quotes(row, rawText).stream()
              .filter(q -> states(row, q.text(), headings))
              .toList();
      for (int p = 0; p < quotes.size(); p++) {
        String text = quotes.get(p).text();
        // The first statement under a heading is also about what the heading names.
        Set<String> stems = new HashSet<>(Words.stems(text));
        stems.addAll(Words.stems(quotes.get(p).opens()));
        var covered = new LinkedHashSet<Concept>();
        for (Concept c : concepts) {
          // A row the user tagged with the concept is about it in every sentence.
          if (ConceptMatch.matches(c, stems, List.of()) || row.userTags().contains(c.preferred())) {
            covered.add(c);
          }
        }
        // A sentence ending with a colon leads into the next one (the first item of the list it
        // introduces); no other sentence is continued.
        String next = p + 1 < quotes.size() ? quotes.get(p + 1).text() : null;
        boolean offers = AnswerShape.offers(kind, question, text);
        out.add(new Sentence(i, p, row, text, next, covered, offers));
      }
    }
    return out;
  }

  /**
   * Whether a quoted text states something: not the row's title or a heading repeated as a line,
   * not a bare link, not a bookmark's folder line.
   */
  private static boolean states(EvidenceRow row, String text, List<String> headings) {
    boolean heading = headings.stream().anyMatch(h -> h.equalsIgnoreCase(text));
    boolean link = text.equals(row.url()) || !text.contains(" ") && text.contains("://");
    boolean folder = "bookmark".equals(row.sourceType()) && text.startsWith("Folder: ");
    return !heading && !link && !folder;
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
    return out;
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
    offering(candidates, picked);
    // The sentence offering what the question asks for leads; the rest follow in rank order.
    picked.sort(
        Comparator.comparing((Sentence s) -> !s.offers())
            .thenComparingInt(Sentence::rowIndex)
            .thenComparingInt(Sentence::position));
    return picked;
  }

  /**
   * When no picked sentence offers the asked-for kind of thing, the candidate that does and covers
   * most required concepts (the higher-ranked row first) joins the answer, in place of the last
   * pick when the answer is full: a "when" question quoting only undated sentences on its topic has
   * not been answered.
   */
  private static void offering(List<Sentence> candidates, List<Sentence> picked) {
    if (picked.isEmpty() || picked.stream().anyMatch(Sentence::offers)) {
      return;
    }
    Sentence best = null;
    for (Sentence s : candidates) {
      if (s.offers()
          && s.required() > 0
          && !picked.contains(s)
          && !repeatsOneOf(s, picked)
          && (best == null || s.required() > best.required())) {
        best = s;
      }
    }
    if (best != null) {
      if (picked.size() >= MAX_SENTENCES) {
        picked.remove(picked.size() - 1);
      }
      picked.add(best);
    }
  }

  private static Sentence best(
      List<Sentence> candidates, int row, Set<Concept> covered, List<Sentence> picked) {
    Sentence best = null;
    double bestScore = 0;
    for (Sentence s : candidates) {
      if (s.rowIndex() != row
          || picked.contains(s)
          || s.required() == 0
          || repeatsOneOf(s, picked)) {
        continue;
      }
      long fresh = s.concepts().stream().filter(c -> c.required() && !covered.contains(c)).count();
      double score =
          3 * fresh
              + s.required()
              + 0.5 * (s.concepts().size() - s.required())
              + (s.offers() ? OFFERS : 0);
      if (score > bestScore) {
        best = s;
        bestScore = score;
      }
    }
    return best;
  }

  /**
   * What offering the asked-for kind of thing (a date for "when", a figure for "how many"; see
   * {@link AnswerShape}) adds to a sentence's score: more than a concept the question does not
   * require, less than a required one, so it decides among sentences covering the same concepts.
   */
  static final double OFFERS = 0.75;

  /** Share of shared words from which two sentences count as one (the same news wire, say). */
  static final double NEAR_DUPLICATE = 0.8;

  /**
   * Whether {@code s} says again what a picked sentence says: most of their words (by stem) are the
   * same, as when two saved pages carry the same wire story or a note quotes a source.
   */
  private static boolean repeatsOneOf(Sentence s, List<Sentence> picked) {
    Set<String> words = Words.stems(s.text());
    for (Sentence p : picked) {
      Set<String> other = Words.stems(p.text());
      long shared = words.stream().filter(other::contains).count();
      int union = words.size() + other.size() - (int) shared;
      if (union > 0 && shared >= NEAR_DUPLICATE * union) {
        return true;
      }
    }
    return false;
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
            && !repeatsOneOf(s, picked)
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
