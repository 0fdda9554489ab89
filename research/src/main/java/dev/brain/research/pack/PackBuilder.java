package dev.brain.research.pack;

import dev.brain.research.plan.PlannerInfo;
import dev.brain.research.plan.QueryFamily;
import dev.brain.research.plan.QueryPlan;
import dev.brain.research.plan.Strategy;
import dev.brain.research.plan.Strategy.Variant;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.Retriever;
import dev.brain.retrieval.SearchFilters;
import dev.brain.retrieval.SearchOptions;
import dev.brain.retrieval.SearchResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds a {@link ResearchPack} from a strategy: one retrieval per variant, the rankings combined
 * and re-scored by concepts ({@link EvidenceRanking}), related rows when asked, exact-tag examples,
 * a topic brief when the question is broad or it was asked for, coverage and next steps.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class PackBuilder {

  /** Rows each variant retrieves, as a multiple of the pack limit (a pool for re-scoring). */
  static final int POOL_FACTOR = 2;

  /** Records named by the nearest-in-meaning follow-up of a pack without evidence. */
  static final int NEAREST = 3;

  private final Retriever retriever;

  /**
   * A built pack with what its retrieval saw, for run traces.
   *
   * @param pack the research pack
   * @param rowsPerVariant rows each variant's search returned, by query, in search order
   * @param candidates distinct records the variants found before re-scoring dropped any
   * @param ranking the keys each variant returned, the scores before and after re-scoring and the
   *     rows dropped, bounded
   */
  public record Built(
      ResearchPack pack,
      Map<String, Integer> rowsPerVariant,
      int candidates,
      RankingTrace ranking) {
    public Built {
      rowsPerVariant = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(rowsPerVariant));
    }

    /** Rows all variants' searches returned together. */
    public int rowsRetrieved() {
      return rowsPerVariant.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  public PackBuilder(Retriever retriever) {
    this.retriever = retriever;
  }

  /**
   * Builds the pack of a strategy. Its searches share one session: one view of the index, each
   * record read and analyzed once.
   */
  public Built build(Strategy strategy, ResearchOptions options, PlannerInfo planner)
      throws IOException {
    try (Retriever.Session session = retriever.session()) {
      return build(session, strategy, options, planner);
    }
  }

  private Built build(
      Retriever.Session session, Strategy strategy, ResearchOptions options, PlannerInfo planner)
      throws IOException {
    var rowsPerVariant = new LinkedHashMap<String, Integer>();
    var variantKeys = new ArrayList<RankingTrace.VariantKeys>();
    SearchFilters filters =
        SearchFilters.NONE
            .withSourceTypes(options.sourceTypes())
            .withBrainWritten(options.includeBrainWritten());
    Set<Lane> lanes = lanes(options);
    var weights = ConceptWeights.measure(session, strategy.concepts());
    var ranking = new EvidenceRanking(strategy, weights);
    SearchResult main = null;
    for (Variant v : strategy.variants()) {
      Set<Lane> variantLanes = lanesOf(v, lanes);
      if (variantLanes.isEmpty()) {
        continue;
      }
      SearchResult result =
          search(session, v.query(), options, filters, variantLanes, poolSize(options));
      main = main == null ? result : main;
      ranking.add(v, result);
      rowsPerVariant.merge(v.query(), result.rows().size(), Integer::sum);
      variantKeys.add(variantKeys(v.query(), result, options.limit()));
    }
    List<EvidenceRow> evidence = new ArrayList<>(ranking.ranked(options.limit()));
    RankingTrace rankingTrace = ranking.trace(variantKeys, poolSize(options));
    if (options.includeRelated() && !evidence.isEmpty()) {
      evidence.addAll(related(session, strategy.textQuery(), options, filters, lanes, evidence));
    }
    SearchResult tags = exactTags(session, strategy, options, filters);
    List<EvidenceRow> exactTagRows = exactTagExamples(tags);
    boolean brief = wantsBrief(strategy, options) && !evidence.isEmpty();
    String topic = strategy.topic() != null ? strategy.topic() : strategy.textQuery();
    TopicBrief topicBrief =
        brief
            ? TopicBriefBuilder.build(
                retriever, topic, seeds(evidence, exactTagRows), options.sourceTypes())
            : null;
    // The plan reports the tags tried that exist: a tag form no record carries matched nothing.
    List<String> tagsTried = session.existingTags(strategy.tagQueries());
    QueryPlan plan =
        plan(strategy, tagsTried, options, planner, lanes, brief ? topic : strategy.topic(), brief);
    var coverage =
        new CoverageBuilder(strategy, weights)
            .coverage(
                evidence,
                tags.lane(Lane.EXACT_TAG).totalMatches(),
                textMatches(session, strategy, filters),
                topicBrief,
                ranking,
                main == null ? null : main.status(Lane.VECTOR),
                options);
    var pack =
        new ResearchPack(
            ResearchPack.SCHEMA_VERSION,
            strategy.question(),
            topicBrief == null
                ? ResearchPack.MODE_EVIDENCE_ONLY
                : ResearchPack.MODE_TOPIC_BRIEF_AND_EVIDENCE,
            plan,
            coverage,
            evidence,
            exactTagRows,
            topicBrief,
            CoverageBuilder.nextSteps(plan, evidence, options, ranking.nearestByMeaning(NEAREST)));
    return new Built(pack, rowsPerVariant, ranking.candidateCount(), rankingTrace);
  }

  /** The first {@code limit} ranked rows of one variant's search, for the run's trace. */
  private static RankingTrace.VariantKeys variantKeys(
      String query, SearchResult result, int limit) {
    List<RankingTrace.KeyScore> keys =
        result.rows().stream()
            .filter(r -> !r.isRelated())
            .limit(limit)
            .map(
                r ->
                    new RankingTrace.KeyScore(
                        r.sourceKey(),
                        r.retrieval().lanes().stream().map(s -> s.lane().wireName()).toList(),
                        EvidenceRanking.round(r.retrieval().fusedScore())))
            .toList();
    return new RankingTrace.VariantKeys(query, result.rows().size(), keys);
  }

  private static Set<Lane> lanes(ResearchOptions options) {
    Set<Lane> lanes = EnumSet.of(Lane.BM25, Lane.EXACT_TAG);
    if (options.semantic()) {
      lanes.add(Lane.VECTOR);
    }
    return lanes;
  }

  private static Set<Lane> lanesOf(Variant v, Set<Lane> allowed) {
    Set<Lane> out = EnumSet.noneOf(Lane.class);
    out.addAll(v.lanes() == null ? allowed : v.lanes());
    out.retainAll(allowed);
    return out;
  }

  private static int poolSize(ResearchOptions options) {
    return Math.min(SearchOptions.MAX_LIMIT, Math.max(10, options.limit() * POOL_FACTOR));
  }

  private static SearchResult search(
      Retriever.Session session,
      String query,
      ResearchOptions options,
      SearchFilters filters,
      Set<Lane> lanes,
      int limit)
      throws IOException {
    var searchOptions =
        SearchOptions.builder()
            .lanes(lanes)
            .limit(limit)
            .filters(filters)
            .maxExcerptChars(options.maxCharsPerDoc())
            .relatedLimit(options.relatedLimit())
            .build();
    return session.search(query, searchOptions);
  }

  /**
   * The link neighbours (links and backlinks, from the related lane) of {@code evidence}'s rows for
   * {@code textQuery}, numbered after them, at most {@code options.relatedLimit()}: the related
   * notes a pack or a run's expansion stage adds when they are asked for.
   */
  static List<EvidenceRow> related(
      Retriever retriever, String textQuery, ResearchOptions options, List<EvidenceRow> evidence)
      throws IOException {
    try (Retriever.Session session = retriever.session()) {
      SearchFilters filters =
          SearchFilters.NONE
              .withSourceTypes(options.sourceTypes())
              .withBrainWritten(options.includeBrainWritten());
      return related(session, textQuery, options, filters, lanes(options), evidence);
    }
  }

  /** Link neighbours of the main search's top rows that link to or from a pack row. */
  private static List<EvidenceRow> related(
      Retriever.Session session,
      String textQuery,
      ResearchOptions options,
      SearchFilters filters,
      Set<Lane> lanes,
      List<EvidenceRow> evidence)
      throws IOException {
    Set<Lane> withRelated = EnumSet.copyOf(lanes);
    withRelated.add(Lane.RELATED);
    SearchResult result =
        search(session, textQuery, options, filters, withRelated, options.limit());
    Set<String> inPack = new HashSet<>();
    evidence.forEach(r -> inPack.add(r.sourceKey()));
    var out = new ArrayList<EvidenceRow>();
    for (EvidenceRow row : result.rows()) {
      if (row.isRelated()
          && inPack.contains(row.relatedTo())
          && inPack.add(row.sourceKey())
          && out.size() < options.relatedLimit()) {
        out.add(RunRows.renumber(row, evidence.size() + out.size() + 1));
      }
    }
    return out;
  }

  private static SearchResult exactTags(
      Retriever.Session session, Strategy strategy, ResearchOptions options, SearchFilters filters)
      throws IOException {
    String text = String.join(" ", strategy.tagQueries());
    if (text.isBlank()) {
      text = strategy.textQuery();
    }
    return search(session, text, options, filters, EnumSet.of(Lane.EXACT_TAG), 10);
  }

  /** Up to three tag matches, an item and a source first when both exist. */
  private static List<EvidenceRow> exactTagExamples(SearchResult tags) {
    List<EvidenceRow> rows = tags.rows().stream().filter(r -> !r.isRelated()).toList();
    var picked = new ArrayList<EvidenceRow>();
    rows.stream().filter(r -> "item".equals(r.kind())).findFirst().ifPresent(picked::add);
    rows.stream().filter(r -> "source".equals(r.kind())).findFirst().ifPresent(picked::add);
    picked.sort((a, b) -> Integer.compare(a.rank(), b.rank()));
    for (EvidenceRow r : rows) {
      if (picked.size() >= ResearchPack.MAX_EXACT_TAG_EVIDENCE) {
        break;
      }
      if (!picked.contains(r)) {
        picked.add(r);
      }
    }
    var out = new ArrayList<EvidenceRow>();
    for (EvidenceRow r : picked) {
      out.add(RunRows.renumber(r, out.size() + 1));
    }
    return out;
  }

  /** Records per kind whose text matches the main search (BM25 only, counted over 1,000 chunks). */
  private static Map<String, Integer> textMatches(
      Retriever.Session session, Strategy strategy, SearchFilters filters) throws IOException {
    var out = new LinkedHashMap<String, Integer>();
    for (String kind : SearchFilters.KINDS) {
      out.put(
          kind,
          session.lexicalRecords(
              strategy.textQuery(), filters.withKinds(List.of(kind)), Coverage.TEXT_MATCH_DEPTH));
    }
    return out;
  }

  private static boolean wantsBrief(Strategy strategy, ResearchOptions options) {
    if (options.includeTopicBrief() != null) {
      return options.includeTopicBrief();
    }
    return strategy.family() == QueryFamily.ENTITY_TOPIC_OVERVIEW;
  }

  private static List<EvidenceRow> seeds(List<EvidenceRow> evidence, List<EvidenceRow> tagRows) {
    var seeds = new ArrayList<EvidenceRow>();
    evidence.stream().filter(r -> !r.isRelated()).forEach(seeds::add);
    seeds.addAll(tagRows);
    return seeds;
  }

  private static QueryPlan plan(
      Strategy s,
      List<String> tagsTried,
      ResearchOptions options,
      PlannerInfo planner,
      Set<Lane> lanes,
      String topic,
      boolean brief) {
    var laneNames = new ArrayList<String>();
    for (Lane lane : lanes) {
      laneNames.add(lane.wireName());
    }
    if (options.includeRelated()) {
      laneNames.add(Lane.RELATED.wireName());
    }
    return new QueryPlan(
        s.textQuery(),
        s.family(),
        s.queryTerms(),
        tagsTried,
        s.variants().stream().map(Variant::wire).toList(),
        s.concepts(),
        planner.planner(),
        planner.model(),
        planner.error(),
        options.sourceTypes(),
        laneNames,
        options.limit(),
        options.maxCharsPerDoc(),
        options.includeRelated(),
        options.relatedLimit(),
        topic,
        brief,
        s.followUp());
  }
}
