package dev.brain.evals;

import dev.brain.Brain;
import dev.brain.index.IndexMetadata;
import dev.brain.index.IndexStats;
import dev.brain.index.SyncListener;
import dev.brain.index.SyncReport;
import dev.brain.retrieval.FusionMode;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.SearchOptions;
import dev.brain.retrieval.SearchResult;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Evaluates brain's retrieval on a BEIR-layout folder: indexes its corpus into a cache index (an
 * incremental sync, so re-runs reuse it and a changed corpus is updated), runs every judged test
 * query per condition (each single lane, then the lanes fused) and reports nDCG@10, Recall@100,
 * MRR@10 and queries per second.
 *
 * <p>Conventions: only query ids in {@code qrels/test.tsv}; graded gains for nDCG; grade >= 1 is
 * relevant; a hit whose doc id equals the query id is dropped (BEIR's rule for corpora that contain
 * the queries).
 */
public final class BeirEvaluation {

  /** Records retrieved per query: enough for Recall@100. */
  static final int RETRIEVE = 100;

  private final Options options;

  /**
   * What to evaluate.
   *
   * @param dataset the BEIR folder
   * @param lanes the lanes to evaluate alone and fused; default bm25 and vector
   * @param fusion how the fused condition combines lanes
   * @param maxQueries evaluate only the first N judged queries (0 = all)
   */
  public record Options(Path dataset, Set<Lane> lanes, FusionMode fusion, int maxQueries) {}

  /** An evaluation with the given options. */
  public BeirEvaluation(Options options) {
    this.options = options;
  }

  /**
   * Runs the evaluation on {@code brain}, whose index the corpus is synced into (give it an index
   * of its own: see {@code BrainConfig.forEvaluation}).
   *
   * @param sync receives indexing progress of the cache index
   * @param log receives one line per finished condition
   * @throws EvalException if the folder is not a BEIR folder
   */
  public BeirReport run(Brain brain, SyncListener sync, Consumer<String> log) throws IOException {
    return run(
        new Corpus() {
          @Override
          public SyncReport index(Path corpus, SyncListener listener) throws IOException {
            return brain.index(List.of(corpus), listener);
          }

          @Override
          public SearchResult search(String query, SearchOptions options) throws IOException {
            return brain.search(query, options);
          }

          @Override
          public IndexStats stats() throws IOException {
            return brain.stats();
          }

          @Override
          public IndexMetadata metadata() {
            return brain.metadata();
          }
        },
        sync,
        log);
  }

  /**
   * What the corpus is indexed into and searched on: a {@link Brain}, or for a bench a bare backend
   * with an embedder of its own.
   */
  interface Corpus {
    SyncReport index(Path corpus, SyncListener listener) throws IOException;

    SearchResult search(String query, SearchOptions options) throws IOException;

    IndexStats stats() throws IOException;

    IndexMetadata metadata();
  }

  BeirReport run(Corpus index, SyncListener sync, Consumer<String> log) throws IOException {
    var dataset = BeirDataset.load(options.dataset());
    var queries = limit(dataset.queries());
    SyncReport syncReport = index.index(dataset.corpus(), sync);
    var results = new ArrayList<BeirReport.Condition>();
    for (var condition : conditions()) {
      var result = evaluate(index::search, condition, options.fusion(), queries, dataset.qrels());
      results.add(result);
      log.accept(result.line());
    }
    var meta = index.metadata();
    var stats = index.stats();
    return new BeirReport(
        BeirReport.SCHEMA_VERSION,
        dataset.dir().toString(),
        Instant.now().toString(),
        queries.size(),
        stats.records(),
        stats.chunks(),
        meta.modelId(),
        meta.vectorFormat().toString(),
        options.fusion().wireName(),
        syncReport.elapsed().toMillis() / 1000.0,
        syncReport.chunksEmbedded(),
        results);
  }

  private Map<String, String> limit(Map<String, String> queries) {
    if (options.maxQueries() <= 0 || options.maxQueries() >= queries.size()) {
      return queries;
    }
    var limited = new LinkedHashMap<String, String>();
    queries.entrySet().stream()
        .limit(options.maxQueries())
        .forEach(e -> limited.put(e.getKey(), e.getValue()));
    return limited;
  }

  private List<Set<Lane>> conditions() {
    return conditions(options.lanes());
  }

  /** Each lane alone, then all of them fused when there are several. */
  static List<Set<Lane>> conditions(Set<Lane> lanes) {
    var conditions = new ArrayList<Set<Lane>>();
    for (var lane : lanes.stream().sorted().toList()) {
      conditions.add(Set.of(lane));
    }
    if (lanes.size() > 1) {
      conditions.add(lanes);
    }
    return conditions;
  }

  /** A search of one query with given options: a retriever's, or a {@code Brain}'s. */
  @FunctionalInterface
  interface Searcher {
    SearchResult search(String query, SearchOptions options) throws IOException;
  }

  /**
   * Scores of one lane condition over {@code queries}, as {@code brain eval beir} measures them.
   */
  static BeirReport.Condition evaluate(
      Searcher retriever,
      Set<Lane> lanes,
      FusionMode fusion,
      Map<String, String> queries,
      Map<String, Map<String, Integer>> qrels)
      throws IOException {
    var searchOptions =
        SearchOptions.builder()
            .lanes(lanes)
            .limit(RETRIEVE)
            .fusion(fusion)
            .maxExcerptChars(40)
            .build();
    double ndcg = 0;
    double recall = 0;
    double mrr = 0;
    long start = System.nanoTime();
    for (var query : queries.entrySet()) {
      var ranking = new ArrayList<String>();
      for (var row : retriever.search(query.getValue(), searchOptions).rows()) {
        var docId = docId(row.sourceKey());
        if (!docId.equals(query.getKey())) {
          ranking.add(docId);
        }
      }
      var judged = qrels.get(query.getKey());
      ndcg += Metrics.ndcg(ranking, judged, 10);
      recall += Metrics.recall(ranking, judged, 100);
      mrr += Metrics.mrr(ranking, judged, 10);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    int n = queries.size();
    var name =
        lanes.size() == 1
            ? lanes.iterator().next().wireName()
            : "hybrid("
                + String.join("+", lanes.stream().sorted().map(Lane::wireName).toList())
                + ")";
    return new BeirReport.Condition(
        name,
        lanes.stream().map(Lane::wireName).toList(),
        round(ndcg / n),
        round(recall / n),
        round(mrr / n),
        round(n / seconds));
  }

  /** The BEIR doc id of a record key ({@code doc:<id>}). */
  static String docId(String key) {
    return key.startsWith("doc:") ? key.substring(4) : key;
  }

  static double round(double v) {
    return Double.parseDouble(String.format(Locale.ROOT, "%.4f", v));
  }
}
