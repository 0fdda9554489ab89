package dev.brain.evals;

import java.util.List;
import java.util.Locale;

/**
 * The result of a BEIR evaluation, written as JSON ({@code beir_eval.v1}) and printed as a table.
 *
 * @param schemaVersion {@value #SCHEMA_VERSION}
 * @param dataset the BEIR folder
 * @param finishedAt when the run ended (UTC, ISO-8601)
 * @param queries judged test queries evaluated
 * @param records records in the cache index
 * @param chunks chunks in the cache index
 * @param model embedding model id
 * @param vectorFormat vector storage format of the cache index
 * @param fusion fusion mode of the hybrid condition
 * @param indexSeconds wall time of the cache index sync in this run (near 0 when reused)
 * @param chunksEmbedded chunks embedded in this run (0 when the cache was reused)
 * @param conditions one entry per lane condition
 */
public record BeirReport(
    String schemaVersion,
    String dataset,
    String finishedAt,
    int queries,
    long records,
    long chunks,
    String model,
    String vectorFormat,
    String fusion,
    double indexSeconds,
    long chunksEmbedded,
    List<Condition> conditions) {

  /** Version of this report's JSON shape. */
  public static final String SCHEMA_VERSION = "beir_eval.v1";

  /**
   * Scores of one lane condition, averaged over the queries.
   *
   * @param name {@code bm25}, {@code vector}, or {@code hybrid(bm25+vector)}
   * @param lanes the lanes searched
   * @param ndcgAt10 mean nDCG@10
   * @param recallAt100 mean Recall@100
   * @param mrrAt10 mean MRR@10
   * @param queriesPerSecond queries per second, single-threaded, end to end through the Retriever
   */
  public record Condition(
      String name,
      List<String> lanes,
      double ndcgAt10,
      double recallAt100,
      double mrrAt10,
      double queriesPerSecond) {

    /** One table line. */
    public String line() {
      return String.format(
          Locale.ROOT,
          "%-22s %8.4f %11.4f %8.4f %9.1f",
          name,
          ndcgAt10,
          recallAt100,
          mrrAt10,
          queriesPerSecond);
    }
  }

  /** The header of the table {@link Condition#line()} rows fit under. */
  public static String header() {
    return String.format(
        Locale.ROOT,
        "%-22s %8s %11s %8s %9s",
        "condition",
        "nDCG@10",
        "Recall@100",
        "MRR@10",
        "q/s");
  }
}
