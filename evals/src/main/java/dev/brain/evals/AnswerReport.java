package dev.brain.evals;

import java.util.List;
import java.util.Locale;

/**
 * The result of an answer evaluation, written as JSON ({@code answer_eval.v1}) and printed as a
 * table with the misses listed, so a person can judge loosely phrased gold answers.
 *
 * @param schemaVersion {@value #SCHEMA_VERSION}
 * @param dataset the folder
 * @param finishedAt when the run ended (UTC, ISO-8601)
 * @param questions questions evaluated
 * @param records records in the cache index
 * @param chunks chunks in the cache index
 * @param model embedding model id
 * @param synthesizer the synthesizer that wrote the answers
 * @param indexSeconds wall time of the cache index sync in this run (near 0 when reused)
 * @param answerContainsGold share of answers containing the gold answer (case- and
 *     punctuation-insensitive)
 * @param answerContainsGoldLoosely share of answers containing every word of the gold answer (two
 *     or more characters, stop words aside) as the start of a word: for loosely phrased gold
 *     answers
 * @param citesRelevant share of answers citing at least one document judged relevant (grade >= 1)
 * @param normalAnswers share of runs ending with a normal (verified, not cut short) answer
 * @param meanAnswerChars mean length of the answers in characters
 * @param latencyMs run latency per question: mean, median and 95th percentile, in milliseconds
 * @param retrieval nDCG@10 and the other retrieval scores per lane and fused
 * @param results one entry per question, in file order
 */
public record AnswerReport(
    String schemaVersion,
    String dataset,
    String finishedAt,
    int questions,
    long records,
    long chunks,
    String model,
    String synthesizer,
    double indexSeconds,
    double answerContainsGold,
    double answerContainsGoldLoosely,
    double citesRelevant,
    double normalAnswers,
    double meanAnswerChars,
    Latency latencyMs,
    List<BeirReport.Condition> retrieval,
    List<Question> results) {

  /** Version of this report's JSON shape. */
  public static final String SCHEMA_VERSION = "answer_eval.v1";

  /**
   * Latency of the research runs.
   *
   * @param mean mean milliseconds
   * @param p50 median milliseconds
   * @param p95 95th percentile milliseconds
   */
  public record Latency(double mean, double p50, double p95) {}

  /**
   * The outcome of one question.
   *
   * @param id the query id
   * @param question the question
   * @param gold the gold answer
   * @param containsGold whether the answer contains the gold answer
   * @param containsGoldLoosely whether it contains every word of the gold answer, loosely
   * @param citesRelevant whether the answer cites a document judged relevant
   * @param status the run's status ({@code ok}, {@code no_evidence}, ...)
   * @param stopReason why the run stopped
   * @param millis run latency
   * @param answer the answer text
   * @param citations the cited record keys
   */
  public record Question(
      String id,
      String question,
      String gold,
      boolean containsGold,
      boolean containsGoldLoosely,
      boolean citesRelevant,
      String status,
      String stopReason,
      long millis,
      String answer,
      List<String> citations) {}

  /** The summary lines of the table (after the retrieval conditions). */
  public String summary() {
    return String.format(
        Locale.ROOT,
        "answer contains gold %5.1f%% (loosely %5.1f%%)   cites a relevant doc %5.1f%%   normal"
            + " answers %5.1f%%%n"
            + "mean answer %.0f chars   latency ms mean %.0f  p50 %.0f  p95 %.0f   (%d questions,"
            + " %s synthesizer)",
        100 * answerContainsGold,
        100 * answerContainsGoldLoosely,
        100 * citesRelevant,
        100 * normalAnswers,
        meanAnswerChars,
        latencyMs.mean(),
        latencyMs.p50(),
        latencyMs.p95(),
        questions,
        synthesizer);
  }

  /** One paragraph per question whose answer misses the gold answer or cites nothing relevant. */
  public List<String> misses() {
    return results.stream()
        .filter(q -> !q.containsGold() || !q.citesRelevant())
        .map(
            q ->
                String.format(
                    Locale.ROOT,
                    "%s%s%s  %s%n  gold: %s   status: %s%n  answer: %s",
                    q.id(),
                    q.containsGold()
                        ? ""
                        : q.containsGoldLoosely() ? " [gold loosely]" : " [no gold]",
                    q.citesRelevant() ? "" : " [no relevant citation]",
                    q.question(),
                    q.gold(),
                    q.status(),
                    q.answer() == null ? "" : q.answer().replace('\n', ' ')))
        .toList();
  }
}
