package dev.brain.research.synthesis;

import dev.brain.research.plan.Concept;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * How well each candidate sentence answers: the share of the question's required concepts it
 * covers, how close it is in meaning to the question (the index's embedding model, scaled among the
 * candidates from the least close to the closest), whether it offers what the question asks for
 * ({@link AnswerShape}), whether it opens a saved source, and the rank of its row; a line of a
 * release entry counts half unless the question asks about releases.
 *
 * <p>Scores closer than {@value #TOLERANCE} are ties, ordered by row rank and then by position in
 * the text: closeness in meaning comes from a quantized model whose kernels differ by CPU in the
 * last digits, and such noise must not decide between two sentences that score the same to the eye,
 * so one corpus gives one answer on any machine. Sorted by score, a run of scores each within the
 * tolerance of the one before is one tie; every member takes the run's best score.
 */
final class Scoring {
  private Scoring() {}

  /** Weight of the share of required concepts a sentence covers (0 to 1). */
  static final double COVERAGE = 1.0;

  /**
   * Weight of a sentence's closeness in meaning to the question, scaled among the candidates from
   * the least close (0) to the closest (1; over a spread of at least {@value #MIN_RANGE}). Less
   * than full coverage: bge-small places on-topic sentences that do not hold the answer about as
   * close as the one that does.
   */
  static final double MEANING = 0.75;

  /**
   * What offering the asked-for kind of thing (a date for "when", a figure for "how many") adds.
   */
  static final double OFFERS = 0.5;

  /**
   * What being the first statement of a saved source adds: an article's opening sentence says what
   * it is about (the lead of a news story, the definition opening an encyclopedia page). Not for
   * notes, whose first line is as often a list of links.
   */
  static final double LEAD = 0.2;

  /** What the top row's rank adds to its sentences' scores; the row at rank r gets RANK / r. */
  static final double RANK = 0.5;

  /**
   * Smallest spread of cosines closeness is scaled over: candidates all about as close in meaning
   * are not spread from 0 to 1 by differences the model does not mean (nor by its noise).
   */
  static final double MIN_RANGE = 0.1;

  /** Most sentences whose meaning is measured (those covering most required concepts first). */
  static final int MAX_MEASURED = 64;

  /** Scores closer than this are ties (noise of the embedding model across CPUs is far below). */
  static final double TOLERANCE = 0.02;

  /** The grid exact signals are rounded to, so the last bits of a logarithm decide nothing. */
  private static final double GRID = 1e-9;

  /** Best first: score, then row rank, then position in the row's text. */
  static final Comparator<Candidate> BEST_FIRST =
      Comparator.comparingDouble(Candidate::score).reversed().thenComparing(Scoring::byPosition);

  /** Row rank, then position in the text. */
  static int byPosition(Candidate a, Candidate b) {
    return Comparator.comparingInt(Candidate::row)
        .thenComparingInt(Candidate::block)
        .thenComparingInt(Candidate::unit)
        .thenComparingInt(Candidate::sentence)
        .compare(a, b);
  }

  /**
   * The candidates covering a required concept, scored and best first. Only the {@value
   * #MAX_MEASURED} covering most required concepts are measured for meaning (row and text order
   * among equals), so the embedding model sees a bounded batch.
   */
  static List<Candidate> ranked(
      List<Candidate> candidates, List<Concept> required, String question, EvidenceReader reader) {
    Map<Concept, Double> weights = weights(candidates, required);
    boolean releases = HISTORY.matcher(question).find();
    // What each candidate keeps of its score, and its score without meaning, computed once.
    var keep = new IdentityHashMap<Candidate, Double>();
    var withoutMeaning = new IdentityHashMap<Candidate, Double>();
    for (Candidate c : candidates) {
      if (c.required() > 0) {
        double kept = releases || !releaseEntry(c) ? 1 : RELEASE_ENTRY;
        keep.put(c, kept);
        withoutMeaning.put(c, round(score(c, weights, 0, kept)));
      }
    }
    // Measured are those that could score best: every signal but meaning, which adds at most
    // MEANING, ranks them first.
    List<Candidate> eligible =
        candidates.stream()
            .filter(keep::containsKey)
            .sorted(
                Comparator.comparingDouble((Candidate c) -> withoutMeaning.get(c))
                    .reversed()
                    .thenComparing(Scoring::byPosition))
            .limit(MAX_MEASURED)
            .toList();
    if (eligible.isEmpty()) {
      return List.of();
    }
    double[] cosine = reader.closeness(question, eligible.stream().map(Candidate::said).toList());
    return scored(eligible, cosine, weights, keep::get);
  }

  /**
   * What a sentence of a release entry keeps of its score when the question does not ask about
   * releases: a changelog names every feature in a line ("Stabilize automatic garbage collection
   * for global caches"), so it matches most questions about a feature without explaining it, which
   * the page about the feature does.
   */
  static final double RELEASE_ENTRY = 0.5;

  /**
   * A version in a heading with an ISO date: "Cargo 1.77 (2024-03-21)", "[0.30.0] - 2025-06-04";
   * not a measure ("42.2 km", "72.5 kg" in a dated note's heading).
   */
  private static final java.util.regex.Pattern VERSION =
      java.util.regex.Pattern.compile("(?<![\\d.])v?\\d+\\.\\d+(?:\\.\\d+)*(?![\\d.]|\\s*\\p{L})");

  private static final java.util.regex.Pattern DATE =
      java.util.regex.Pattern.compile("\\b\\d{4}-\\d{2}-\\d{2}\\b");

  /**
   * A question about releases: what changed, was added, removed or deprecated, since or in which
   * version, how to upgrade or migrate, or one naming a version number.
   */
  private static final java.util.regex.Pattern HISTORY =
      java.util.regex.Pattern.compile(
          "(?i)\\b(changed|changes|changelog|added|removed|deprecat\\w*|since|versions?|releas\\w*"
              + "|introduc\\w*|upgrad\\w*|migrat\\w*|breaking|history|stabili[sz]\\w*)\\b"
              + "|\\d+\\.\\d+");

  /**
   * Whether {@code c} is a line of a release entry: under a heading naming a version and a date.
   */
  static boolean releaseEntry(Candidate c) {
    for (String heading : c.text().headingPath(c.block())) {
      if (VERSION.matcher(heading).find() && DATE.matcher(heading).find()) {
        return true;
      }
    }
    return false;
  }

  /**
   * How much each required concept says in this evidence: {@code ln(1 + n / (1 + df))} over the
   * {@code n} candidate sentences, {@code df} of them covering it. A concept every sentence of the
   * evidence mentions ("panic" in a chapter on panics) tells them apart less than one few mention.
   */
  static Map<Concept, Double> weights(List<Candidate> candidates, List<Concept> required) {
    var out = new LinkedHashMap<Concept, Double>();
    int n = candidates.size();
    for (Concept c : required) {
      long df = candidates.stream().filter(s -> s.concepts().contains(c)).count();
      out.put(c, Math.log(1 + (double) n / (1 + df)));
    }
    return out;
  }

  /**
   * What a concept a sentence covers only through its section's headings counts, against one its
   * own words cover: a section about "Berlin Marathon 2024 plan" is about the marathon, but its
   * table of paces answers less about it than a sentence naming it.
   */
  static final double INHERITED = 0.5;

  /** The weighted share of the required concepts {@code c} covers. */
  static double coverage(Candidate c, Map<Concept, Double> weights) {
    double all = 0;
    double covered = 0;
    for (var w : weights.entrySet()) {
      all += w.getValue();
      if (c.concepts().contains(w.getKey())) {
        covered += c.inherited().contains(w.getKey()) ? INHERITED * w.getValue() : w.getValue();
      }
    }
    return all == 0 ? 0 : covered / all;
  }

  /**
   * The candidates with their scores from {@code cosine} (one per candidate), best first, each
   * scaled by what it {@code keep}s of it (a release entry's line {@value #RELEASE_ENTRY} when the
   * question does not ask about releases, else 1).
   */
  static List<Candidate> scored(
      List<Candidate> eligible,
      double[] cosine,
      Map<Concept, Double> weights,
      ToDoubleFunction<Candidate> keep) {
    double min = Double.MAX_VALUE;
    double max = -Double.MAX_VALUE;
    for (double c : cosine) {
      min = Math.min(min, c);
      max = Math.max(max, c);
    }
    var out = new ArrayList<Candidate>();
    for (int i = 0; i < eligible.size(); i++) {
      Candidate s = eligible.get(i);
      double closeness = (cosine[i] - min) / Math.max(max - min, MIN_RANGE);
      out.add(s.scored(score(s, weights, closeness, keep.applyAsDouble(s))));
    }
    return ties(out);
  }

  /** The score of {@code c} with {@code closeness} in meaning (0 to 1), {@code keep} of it. */
  private static double score(
      Candidate c, Map<Concept, Double> weights, double closeness, double keep) {
    return keep
        * (COVERAGE * coverage(c, weights)
            + MEANING * closeness
            + (c.offers() ? OFFERS : 0)
            + (c.lead() ? LEAD : 0)
            + RANK / (1 + c.row()));
  }

  /** {@code score} on a fine grid: equal computations stay equal on any CPU. */
  static double round(double score) {
    return Math.round(score / GRID) * GRID;
  }

  /**
   * {@code scored}, best first, with scores within {@value #TOLERANCE} of one another tied: sorted
   * by score, each run of scores within the tolerance of the one before takes the run's best score,
   * and ties are ordered by row rank and position in the text.
   */
  static List<Candidate> ties(List<Candidate> scored) {
    var sorted = new ArrayList<>(scored);
    sorted.sort(
        Comparator.comparingDouble(Candidate::score).reversed().thenComparing(Scoring::byPosition));
    var out = new ArrayList<Candidate>();
    double top = 0;
    double previous = Double.NaN;
    for (Candidate c : sorted) {
      if (Double.isNaN(previous) || previous - c.score() >= TOLERANCE) {
        top = round(c.score());
      }
      previous = c.score();
      out.add(c.scored(top));
    }
    out.sort(BEST_FIRST);
    return out;
  }
}
