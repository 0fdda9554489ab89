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
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The built-in, deterministic synthesizer: no model, no outside knowledge. It renders the included
 * evidence from Markdown to the text a reader sees (no callout, code-fence or table syntax,
 * wikilinks as their visible text; see {@link EvidenceSentences}), splits it into whole sentences
 * and scores each one that mentions a required concept by five signals: the share of the question's
 * required concepts it covers (a sentence opening with a pronoun also covers what the sentence
 * before it names), how close it is in meaning to the question (the index's embedding model,
 * sentence against question, relative to the other candidates), whether it offers what the question
 * asks for (a date for "when", a figure for "how many", a model number for "which model"; see
 * {@link AnswerShape}), whether it opens a saved source (the sentence that says what an article is
 * about), and the rank of its row (a transcript's speaker label counts for neither). The best
 * sentence of each of the top {@value #LEAD_ROWS} rows and the best others lead the answer, {@value
 * #LEAD_SENTENCES} in all, best first; sentences covering a required concept none of them mentions
 * follow, up to {@value #MAX_SENTENCES}. Each is cited with its record key, the user's notes apart
 * from saved sources. It says plainly which required concepts no selected sentence mentions, and
 * when the pack holds no evidence it says only that.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class ExtractiveSynthesizer {

  /** Most sentences in an answer. */
  static final int MAX_SENTENCES = 5;

  /** Sentences chosen by score alone; the rest only add a required concept. */
  static final int LEAD_SENTENCES = 4;

  /** Most sentences quoted from one row but the top one. */
  static final int PER_ROW = 2;

  /** Most sentences quoted from the top row. */
  static final int TOP_ROW = 3;

  /** Rows whose best sentence leads the answer when it scores well enough. */
  static final int LEAD_ROWS = 2;

  /** Share of the best sentence's score a top row's best sentence needs to lead too. */
  static final double LEAD_FLOOR = 0.6;

  private static final Comparator<Sentence> BEST_FIRST =
      Comparator.comparingDouble(Sentence::score)
          .reversed()
          .thenComparingInt(Sentence::rowIndex)
          .thenComparingInt(Sentence::position);

  /** Weight of the share of required concepts a sentence covers (0 to 1). */
  static final double COVERAGE = 1.0;

  /**
   * Weight of a sentence's closeness in meaning to the question, scaled among the candidates from
   * the least close (0) to the closest (1). Less than full coverage: bge-small places on-topic
   * sentences that do not hold the answer about as close as the one that does.
   */
  static final double MEANING = 0.75;

  /**
   * What offering the asked-for kind of thing (a date for "when", a figure for "how many"; see
   * {@link AnswerShape}) adds to a sentence's score.
   */
  static final double OFFERS = 0.5;

  /**
   * What being the first statement of a saved source adds to a sentence's score: an article's
   * opening sentence says what it is about and who did what (the lead of a news story, the
   * definition opening an encyclopedia page), so among sentences covering the same concepts it is
   * the likelier answer. Not for notes, whose first line is as often a list of links.
   */
  static final double LEAD = 0.2;

  /** What the top row's rank adds to its sentences' scores; the row at rank r gets RANK / r. */
  static final double RANK = 0.5;

  /** Most sentences whose meaning is measured (those covering most required concepts first). */
  static final int MAX_MEASURED = 32;

  private ExtractiveSynthesizer() {}

  /** A sentence of an evidence row with the concepts it covers and its score. */
  private record Sentence(
      int rowIndex,
      int position,
      EvidenceRow row,
      String text,
      String said,
      String next,
      Set<Concept> concepts,
      boolean offers,
      boolean lead,
      double score) {

    long required() {
      return concepts.stream().filter(Concept::required).count();
    }

    Sentence scored(double value) {
      return new Sentence(rowIndex, position, row, text, said, next, concepts, offers, lead, value);
    }
  }

  /**
   * How close in meaning each sentence is to the question: one cosine per sentence, in input order;
   * {@link #NONE} where no embedding model is at hand.
   */
  @FunctionalInterface
  interface Meaning {
    double[] of(String question, List<String> sentences);

    /** No measure of meaning: sentences are scored by coverage, answer type and rank alone. */
    Meaning NONE = (question, sentences) -> new double[sentences.size()];
  }

  /** The extractive answer of a prepared synthesis, quoting from the rows' excerpts alone. */
  public static SynthesisResult answer(PreparedSynthesis prepared) {
    return answer(prepared, key -> Optional.empty(), Meaning.NONE);
  }

  /**
   * The extractive answer of a prepared synthesis, quoting whole sentences of the retrieved chunks
   * in the stored text the {@code retriever} reads (the excerpts where a text cannot be read),
   * ranked with the index's embedding model (by coverage and answer type alone if it cannot load).
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
        },
        (question, sentences) -> {
          try {
            return retriever.similarities(question, sentences);
          } catch (RuntimeException e) {
            return Meaning.NONE.of(question, sentences);
          }
        });
  }

  /** The extractive answer, reading a record's stored text by key through {@code rawText}. */
  static SynthesisResult answer(
      PreparedSynthesis prepared, Function<String, Optional<String>> rawText) {
    return answer(prepared, rawText, Meaning.NONE);
  }

  /**
   * The extractive answer, with stored texts from {@code rawText}, meaning from {@code meaning}.
   */
  static SynthesisResult answer(
      PreparedSynthesis prepared, Function<String, Optional<String>> rawText, Meaning meaning) {
    ResearchPack pack = prepared.pack();
    if (!pack.hasEvidence()) {
      return result(prepared, noEvidence(pack), List.of());
    }
    List<Concept> concepts = pack.queryPlan().concepts();
    List<Concept> required = pack.queryPlan().requiredConcepts();
    Set<AnswerShape.Kind> kinds = AnswerShape.kinds(pack.question());
    List<Sentence> candidates =
        sentences(prepared.includedRows(), concepts, rawText, pack.question(), kinds);
    List<Sentence> picked =
        pack.queryPlan().queryFamily() == QueryFamily.ENTITY_TOPIC_OVERVIEW
            ? overview(candidates)
            : select(scored(candidates, required.size(), pack.question(), meaning), required);
    String text =
        picked.isEmpty() ? closest(prepared.includedRows().get(0)) : write(picked, required);
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
      Set<AnswerShape.Kind> kinds) {
    var out = new ArrayList<Sentence>();
    for (int i = 0; i < rows.size(); i++) {
      EvidenceRow row = rows.get(i);
      List<String> headings = knownHeadings(row);
      List<EvidenceSentences.Quote> all = EvidenceSentences.quotes(row, rawText);
      // A saved source's first statement (a title repeated as its first line is none) leads it
      // when its text was read from the start and goes on after it: a one-line record (a
      // bookmark's description) has nothing its first line stands out from. A note's first line
      // is as often a list of links ("Workouts: Tempo runs, Long run log") as a summary: notes
      // have no lead.
      List<EvidenceSentences.Quote> quotes =
          all.stream().filter(q -> states(row, q.text(), headings)).toList();
      boolean fromStart = quotes.size() > 1 && all.get(0).lead() && !isNote(row);
      Set<Concept> before = Set.of();
      for (int p = 0; p < quotes.size(); p++) {
        EvidenceSentences.Quote quote = quotes.get(p);
        String text = quote.text();
        String said = withoutSpeaker(row, text);
        // The first statement under a heading is also about what the heading names.
        Set<String> stems = new HashSet<>(Words.stems(said));
        stems.addAll(Words.stems(quote.opens()));
        var covered = new LinkedHashSet<Concept>();
        for (Concept c : concepts) {
          // A row the user tagged with the concept is about it in every sentence.
          if (ConceptMatch.matches(c, stems, List.of()) || row.userTags().contains(c.preferred())) {
            covered.add(c);
          }
        }
        // "It was announced in December 2023." is about what the sentence before it names.
        if (p > 0 && quotes.get(p - 1).block() == quote.block() && opensWithPronoun(text)) {
          covered.addAll(before);
        }
        before = covered;
        // A sentence ending with a colon leads into the next one (the first item of the list it
        // introduces); no other sentence is continued.
        String next = p + 1 < quotes.size() ? quotes.get(p + 1).text() : null;
        boolean offers = AnswerShape.offers(kinds, question, text);
        out.add(new Sentence(i, p, row, text, said, next, covered, offers, p == 0 && fromStart, 0));
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

  /** A transcript line's speaker label: up to four capitalised words and a colon. */
  private static final Pattern SPEAKER =
      Pattern.compile("^\\p{Lu}[\\p{L}.'-]*(?: \\p{Lu}[\\p{L}.'-]*){0,3}: ");

  /**
   * What a transcript line says, without its speaker label: "Ines Duarte: Not at all." names who
   * speaks, not what the line is about, so the label neither covers a concept nor counts for
   * meaning (the quote keeps it).
   */
  static String withoutSpeaker(EvidenceRow row, String text) {
    boolean transcript =
        "transcript".equals(row.sourceType()) || "transcript".equals(row.evidenceRole());
    return transcript ? SPEAKER.matcher(text).replaceFirst("") : text;
  }

  private static final Set<String> PRONOUNS =
      Set.of("it", "its", "he", "his", "she", "her", "they", "their", "this", "these");

  /** Whether a sentence opens with a pronoun standing for what the sentence before it names. */
  static boolean opensWithPronoun(String sentence) {
    int end = 0;
    while (end < sentence.length() && Character.isLetter(sentence.charAt(end))) {
      end++;
    }
    return PRONOUNS.contains(sentence.substring(0, end).toLowerCase(Locale.ROOT));
  }

  /**
   * The candidates that mention a required concept, each with its score: required coverage,
   * closeness in meaning (scaled from the least to the most similar candidate), the offered answer
   * type, the record's opening sentence and the row's rank. Only the {@value #MAX_MEASURED}
   * sentences covering most required concepts are measured for meaning (in rank order among
   * equals), so the embedding model sees a bounded batch.
   */
  private static List<Sentence> scored(
      List<Sentence> sentences, int requiredCount, String question, Meaning meaning) {
    List<Sentence> eligible =
        sentences.stream()
            .filter(s -> s.required() > 0)
            .sorted(
                Comparator.comparingLong(Sentence::required)
                    .reversed()
                    .thenComparingInt(Sentence::rowIndex)
                    .thenComparingInt(Sentence::position))
            .limit(MAX_MEASURED)
            .toList();
    if (eligible.isEmpty()) {
      return List.of();
    }
    double[] cosine = meaning.of(question, eligible.stream().map(Sentence::said).toList());
    double min = Double.MAX_VALUE;
    double max = -Double.MAX_VALUE;
    for (double c : cosine) {
      min = Math.min(min, c);
      max = Math.max(max, c);
    }
    var out = new ArrayList<Sentence>();
    for (int i = 0; i < eligible.size(); i++) {
      Sentence s = eligible.get(i);
      double closeness = max > min ? (cosine[i] - min) / (max - min) : 0;
      double score =
          COVERAGE * s.required() / Math.max(1, requiredCount)
              + MEANING * closeness
              + (s.offers() ? OFFERS : 0)
              + (s.lead() ? LEAD : 0)
              + RANK / (1 + s.rowIndex());
      out.add(s.scored(score));
    }
    out.sort(BEST_FIRST);
    return out;
  }

  /**
   * The answer's sentences, best first. The best sentence of each of the top {@value #LEAD_ROWS}
   * rows scoring at least {@value #LEAD_FLOOR} of the best score (the top documents each have their
   * say), then the best-scored others up to {@value #LEAD_SENTENCES} in all, none of a row the
   * ranking found only a partial match; then, for each required concept none of them mentions, the
   * best-scored sentence that does; at most {@value #PER_ROW} per row ({@value #TOP_ROW} of the top
   * row), no near-duplicates.
   */
  private static List<Sentence> select(List<Sentence> ranked, List<Concept> required) {
    var picked = new ArrayList<Sentence>();
    if (ranked.isEmpty()) {
      return picked;
    }
    double floor = LEAD_FLOOR * ranked.get(0).score();
    for (int row = 0; row < LEAD_ROWS; row++) {
      for (Sentence s : ranked) {
        if (s.rowIndex() == row) {
          if (s.score() >= floor && !ConceptMatch.isPartial(s.row()) && fits(s, picked)) {
            picked.add(s);
          }
          break;
        }
      }
    }
    for (Sentence s : ranked) {
      if (picked.size() >= LEAD_SENTENCES) {
        break;
      }
      if (!ConceptMatch.isPartial(s.row()) && fits(s, picked)) {
        picked.add(s);
      }
    }
    for (Sentence s : ranked) {
      if (picked.size() >= MAX_SENTENCES) {
        break;
      }
      if (addsConcept(s, picked) && fits(s, picked)) {
        picked.add(s);
      }
    }
    picked.sort(BEST_FIRST);
    return picked;
  }

  /**
   * Whether {@code s} may join {@code picked}: showing no sentence a pick of its row shows already
   * (a sentence ending with a colon shows the one after it too), of a row not yet quoted too often,
   * no repeat.
   */
  private static boolean fits(Sentence s, List<Sentence> picked) {
    long fromRow = picked.stream().filter(p -> p.rowIndex() == s.rowIndex()).count();
    int limit = s.rowIndex() == 0 ? TOP_ROW : PER_ROW;
    boolean shown =
        picked.stream()
            .anyMatch(
                p -> p.rowIndex() == s.rowIndex() && !Collections.disjoint(shows(p), shows(s)));
    return !shown && fromRow < limit && !repeatsOneOf(s, picked);
  }

  /** The sentences a pick shows: itself and, when it ends with a colon, the one it leads into. */
  private static List<String> shows(Sentence s) {
    return s.text().endsWith(":") && s.next() != null
        ? List.of(s.text(), s.next())
        : List.of(s.text());
  }

  /** Whether {@code s} mentions a required concept no picked sentence mentions. */
  private static boolean addsConcept(Sentence s, List<Sentence> picked) {
    return s.concepts().stream()
        .filter(Concept::required)
        .anyMatch(c -> picked.stream().noneMatch(p -> p.concepts().contains(c)));
  }

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
   * For a broad topic: per row in rank order, the sentence covering most concepts, the first in the
   * text among equals (what a document says first about its topic introduces it best).
   */
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
      (isNote(s.row()) ? notes : sources).add(s);
    }
    // The best sentence leads: its section comes first.
    boolean notesFirst = isNote(picked.get(0).row());
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
    for (Sentence s : sentences) {
      t.append("- ").append(String.join(" ", shows(s)));
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
    return isNote(row) ? "" : row.sourceType();
  }

  /** Whether the row is one of the user's own notes rather than a saved source. */
  private static boolean isNote(EvidenceRow row) {
    return "note".equals(row.sourceType());
  }
}
