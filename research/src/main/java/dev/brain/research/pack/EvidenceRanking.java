package dev.brain.research.pack;

import dev.brain.research.plan.Concept;
import dev.brain.research.plan.Incidental;
import dev.brain.research.plan.PartsOfSpeech;
import dev.brain.research.plan.Strategy;
import dev.brain.research.plan.Strategy.Variant;
import dev.brain.research.plan.Words;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.LaneScore;
import dev.brain.retrieval.SearchResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * Combines the rankings of the query variants into one ranking of records and re-scores it by the
 * question's concepts. Every decision is written onto the row as a signal, so a rank can be
 * explained from the pack alone:
 *
 * <ul>
 *   <li>{@code variants:h/n} — the record was found by h of the n variants; a record's base score
 *       is the weighted reciprocal rank over the variants ({@code weight / (k + rank)}, k = {@value
 *       #VARIANT_K}), scaled so that rank 1 in every variant is 1;
 *   <li>{@code concepts:m/r} — it matches m of the r required concepts; {@code
 *       all_required_concepts} when it matches all, {@code missing_concept:<key>} for each it
 *       misses. The score is multiplied by {@code 0.5 + 0.5 * coverage}, where coverage weighs each
 *       required concept by its rarity in the corpus ({@link ConceptWeights}), and rows matching
 *       all required concepts get {@value #ALL_REQUIRED_BONUS} on top;
 *   <li>{@code source_hint:<type>} — its source type (or evidence role) is one the question names
 *       ("what did the podcast say"): score x {@value #HINT_BOOST};
 *   <li>{@code strong_semantic} — no lexical coverage to speak of, but a cosine similarity of at
 *       least {@value #STRONG_COSINE};
 *   <li>{@code partial_match} — it matches some but less than half of the weighted required
 *       concepts: kept below direct evidence, and only when there is direct evidence at all.
 * </ul>
 *
 * Rows matching no required concept (and not semantically strong) are dropped as off-topic.
 */
final class EvidenceRanking {

  /** The k of the reciprocal-rank combination of variants: small, so rank differences count. */
  static final int VARIANT_K = 10;

  /** Bonus for a row that matches every required concept. */
  static final double ALL_REQUIRED_BONUS = 0.15;

  /** Multiplier for a row of the source type the question names. */
  static final double HINT_BOOST = 1.25;

  /**
   * Cosine similarity (bge-small-en-v1.5) from which a vector match counts as direct evidence on
   * its own. Measured on the sample vault: relevant top hits score 0.72-0.82, the best hits of
   * questions the corpus cannot answer 0.41-0.59.
   */
  static final double STRONG_COSINE = 0.70;

  /** Weighted required-concept coverage from which a row is direct evidence. */
  static final double DIRECT_COVERAGE = 0.5;

  /** A record with everything known about it across the variants. */
  static final class Candidate {
    EvidenceRow best;
    double bestContribution = -1;
    double base;
    int variantHits;
    final Set<String> matchedWords = new HashSet<>();
    double maxCosine = Double.NaN;

    /** The cosine to the question as asked (the vector-only variant), NaN when not found so. */
    double askedCosine = Double.NaN;

    Set<String> stems;
    final List<Concept> matched = new ArrayList<>();
    final List<Concept> missing = new ArrayList<>();
    double coverage;
    boolean hint;
    double score;

    /** Its rank in the pack, or 0; why it was left out, or null (for traces). */
    int rank;

    String dropReason;

    boolean direct() {
      return coverage >= DIRECT_COVERAGE || strongSemantic();
    }

    boolean strongSemantic() {
      return !Double.isNaN(maxCosine) && maxCosine >= STRONG_COSINE;
    }
  }

  private final Strategy strategy;
  private final ConceptWeights weights;

  /** The keys of the concepts {@link #unmatchable}, once known. */
  private Set<String> unmatchable;

  private final Map<String, Candidate> candidates = new LinkedHashMap<>();
  private double totalWeight;
  private int variantCount;

  EvidenceRanking(Strategy strategy, ConceptWeights weights) {
    this.strategy = strategy;
    this.weights = weights;
  }

  /** Adds the ranked (not related) rows of one variant's search. */
  void add(Variant variant, SearchResult result) {
    variantCount++;
    totalWeight += variant.weight();
    for (EvidenceRow row : result.rows()) {
      if (row.isRelated()) {
        continue;
      }
      Candidate c = candidates.computeIfAbsent(row.sourceKey(), k -> new Candidate());
      double contribution = variant.weight() / (VARIANT_K + row.rank());
      c.base += contribution;
      c.variantHits++;
      c.matchedWords.addAll(row.matchedTerms());
      LaneScore vector = row.retrieval().lane(Lane.VECTOR);
      if (vector != null) {
        c.maxCosine =
            Double.isNaN(c.maxCosine)
                ? vector.rawScore()
                : Math.max(c.maxCosine, vector.rawScore());
        if (Set.of(Lane.VECTOR).equals(variant.lanes())) {
          c.askedCosine = vector.rawScore();
        }
      }
      if (contribution > c.bestContribution) {
        c.best = row;
        c.bestContribution = contribution;
      }
    }
  }

  /**
   * The ranked, re-scored rows: direct evidence and partial matches, best first, at most {@code
   * limit}; empty when no row is direct evidence.
   */
  List<EvidenceRow> ranked(int limit) {
    double scale = totalWeight / (VARIANT_K + 1);
    List<Candidate> kept = new ArrayList<>();
    for (Candidate c : candidates.values()) {
      c.base = scale == 0 ? 0 : c.base / scale;
      judge(c);
      if (c.direct() || c.coverage > 0) {
        kept.add(c);
      } else {
        c.dropReason = RankingTrace.OFF_TOPIC;
      }
    }
    if (kept.stream().noneMatch(Candidate::direct)) {
      kept.forEach(c -> c.dropReason = RankingTrace.NO_DIRECT_EVIDENCE);
      return List.of();
    }
    kept.sort(BY_SCORE);
    var rows = new ArrayList<EvidenceRow>();
    for (Candidate c : kept) {
      if (rows.size() < limit) {
        c.rank = rows.size() + 1;
        rows.add(rewrite(c, c.rank));
      } else {
        c.dropReason = RankingTrace.PAST_LIMIT;
      }
    }
    return rows;
  }

  private static final Comparator<Candidate> BY_SCORE =
      Comparator.comparingDouble((Candidate c) -> c.score)
          .reversed()
          .thenComparing(c -> c.best.sourceKey());

  /**
   * What {@link #ranked} did, for traces: {@code variants} as the searches returned them, the
   * {@code cap} best candidates with their scores before and after re-scoring, and at most {@code
   * cap} of the dropped ones with why. Call after {@link #ranked}.
   */
  RankingTrace trace(List<RankingTrace.VariantKeys> variants, int cap) {
    List<Candidate> all = candidates.values().stream().sorted(BY_SCORE).toList();
    var rescored =
        all.stream()
            .limit(cap)
            .map(
                c ->
                    new RankingTrace.Rescore(
                        c.best.sourceKey(),
                        round(c.base),
                        round(c.score),
                        c.rank == 0 ? null : c.rank))
            .toList();
    List<Candidate> dropped = all.stream().filter(c -> c.dropReason != null).toList();
    return new RankingTrace(
        variants,
        rescored,
        dropped.stream()
            .limit(cap)
            .map(c -> new RankingTrace.Dropped(c.best.sourceKey(), c.dropReason))
            .toList(),
        Math.max(0, dropped.size() - cap));
  }

  /** A score to four decimals: enough to compare, short in a trace. */
  static double round(double score) {
    return Math.round(score * 10_000) / 10_000.0;
  }

  /**
   * The follow-up naming the left-out records nearest the question in meaning (best cosine first,
   * at most {@code n}), or null when the vector lane found none. They are not evidence: none is
   * direct (too few required concepts, not semantically strong).
   */
  NextStep nearestByMeaning(int n) {
    // Ranked by closeness to the question as asked; keyword variants ("fall asleep night") are
    // near other things. Without that variant (a corrective follow-up), by the best cosine.
    boolean asked = candidates.values().stream().anyMatch(c -> !Double.isNaN(c.askedCosine));
    ToDoubleFunction<Candidate> cosine = c -> asked ? c.askedCosine : c.maxCosine;
    List<Candidate> nearest =
        candidates.values().stream()
            .filter(c -> !c.direct() && !Double.isNaN(cosine.applyAsDouble(c)))
            .sorted(
                Comparator.comparingDouble(cosine)
                    .reversed()
                    .thenComparing(c -> c.best.sourceKey()))
            .limit(n)
            .toList();
    if (nearest.isEmpty()) {
      return null;
    }
    List<String> titles =
        nearest.stream()
            .map(c -> c.best.title() == null ? c.best.sourceKey() : c.best.title())
            .toList();
    var params = new LinkedHashMap<String, Object>();
    params.put("lookups", nearest.stream().map(c -> c.best.sourceKey()).toList());
    params.put("titles", titles);
    params.put(
        "cosines",
        nearest.stream().map(c -> Math.round(cosine.applyAsDouble(c) * 1000) / 1000.0).toList());
    return new NextStep(
        NextStep.NEAREST_BY_MEANING,
        "Nearest in meaning, with too few of the key words: " + String.join("; ", titles),
        params);
  }

  /** Distinct records any variant found. */
  int candidateCount() {
    return candidates.size();
  }

  private void judge(Candidate c) {
    c.stems = ConceptMatch.stems(c.best, c.matchedWords);
    double requiredWeight = 0;
    double matchedWeight = 0;
    for (Concept concept : strategy.concepts()) {
      if (unmatchable(concept)) {
        continue;
      }
      boolean hit = ConceptMatch.matches(concept, c.stems, c.best.userTags());
      if (hit) {
        c.matched.add(concept);
      } else if (concept.required()) {
        c.missing.add(concept);
      }
      if (concept.required()) {
        double w = weights.weight(concept);
        requiredWeight += w;
        matchedWeight += hit ? w : 0;
      }
    }
    c.coverage = requiredWeight == 0 ? 1 : matchedWeight / requiredWeight;
    c.hint = hinted(c.best);
    c.score = c.base * (0.5 + 0.5 * c.coverage) * (c.hint ? HINT_BOOST : 1.0);
    if (c.missing.isEmpty() && !strategy.required().isEmpty()) {
      c.score += ALL_REQUIRED_BONUS;
    }
  }

  /**
   * Whether {@code concept} can match no row and so tells no row apart: a required concept that
   * occurs nowhere in the corpus and is the user's own token ({@link Incidental}: a host name, a
   * file, a number) or a word the question uses to say how something is or what it does ({@link
   * PartsOfSpeech#describing}: "dev server got <em>sluggish</em>", "<em>smaller</em> install?"),
   * while most required concepts occur somewhere. Weighed as the rarest concept it would leave
   * every row a partial match and the question without evidence for one word the corpus writes
   * otherwise ("redirect www.mysite.com to mysite.com" finding nothing about redirects). A thing
   * the corpus lacks ("comments like <em>giscus</em>") keeps its weight: what the question asks
   * about, and a question about it still finds nothing.
   */
  private boolean unmatchable(Concept concept) {
    if (unmatchable == null) {
      List<Concept> absent = strategy.required().stream().filter(weights::absent).toList();
      boolean fewAbsent = absent.size() * 2 < strategy.required().size();
      Set<String> describing =
          fewAbsent
              ? PartsOfSpeech.describing(
                  strategy.question(), absent.stream().map(Concept::preferred).toList())
              : Set.of();
      unmatchable = new HashSet<>();
      for (Concept c : absent) {
        if (Incidental.is(c) || describing.contains(c.preferred())) {
          unmatchable.add(c.key());
        }
      }
    }
    return concept.required() && unmatchable.contains(concept.key());
  }

  private boolean hinted(EvidenceRow row) {
    return strategy.sourceHints().contains(row.sourceType())
        || strategy.sourceHints().contains(row.evidenceRole());
  }

  private EvidenceRow rewrite(Candidate c, int rank) {
    EvidenceRow r = c.best;
    var signals = new ArrayList<>(r.signals());
    signals.add("variants:" + c.variantHits + "/" + variantCount);
    int required = strategy.required().size();
    long matchedRequired = c.matched.stream().filter(Concept::required).count();
    signals.add("concepts:" + matchedRequired + "/" + required);
    if (c.missing.isEmpty() && required > 0) {
      signals.add("all_required_concepts");
    }
    c.missing.forEach(m -> signals.add("missing_concept:" + m.key()));
    if (c.hint) {
      signals.add(
          "source_hint:"
              + (strategy.sourceHints().contains(r.sourceType())
                  ? r.sourceType()
                  : r.evidenceRole()));
    }
    if (c.coverage < DIRECT_COVERAGE && c.strongSemantic()) {
      signals.add("strong_semantic");
    }
    if (!c.direct()) {
      signals.add("partial_match");
    }
    var matchedTerms = new ArrayList<String>();
    var missingTerms = new ArrayList<String>();
    for (String term : strategy.queryTerms()) {
      boolean hit =
          Words.matches(term, c.stems) || r.userTags().contains(term.toLowerCase(Locale.ROOT));
      (hit ? matchedTerms : missingTerms).add(term);
    }
    // Ranked rows only (related rows are skipped in add): relatedTo stays null.
    return r.withRank(rank).withEvidence(signals, matchedTerms, missingTerms);
  }

  /** The keys of the required concepts that none of {@code rows} matches. */
  List<String> missingConcepts(List<EvidenceRow> rows) {
    var out = new ArrayList<String>();
    for (Concept concept : strategy.required()) {
      boolean any = false;
      for (EvidenceRow row : rows) {
        Candidate c = candidates.get(row.sourceKey());
        if (c != null && c.matched.contains(concept)) {
          any = true;
          break;
        }
      }
      if (!any) {
        out.add(concept.key());
      }
    }
    return out;
  }
}
