package dev.brain.evals;

import java.util.List;
import java.util.Locale;

/**
 * The result of an answer evaluation on a folder of documents, written as JSON ({@code
 * document_answer_eval.v1}) and printed as a summary with every miss listed.
 *
 * @param schemaVersion {@value #SCHEMA_VERSION}
 * @param documents the folder of documents indexed
 * @param questionFiles the question files read
 * @param finishedAt when the run ended (UTC, ISO-8601)
 * @param questions questions evaluated
 * @param answerable questions with an expected file
 * @param unanswerable questions without one
 * @param records records in the cache index
 * @param chunks chunks in the cache index
 * @param model embedding model id
 * @param synthesizer the synthesizer that wrote the answers
 * @param indexSeconds wall time of the cache index sync in this run (near 0 when reused)
 * @param search where search (both lanes fused, as {@code brain search} runs it) ranks the first
 *     expected file, over the answerable questions
 * @param citesExpected answerable questions whose answer cites an expected file
 * @param statesFact answerable questions whose answer contains the fact (case-insensitive)
 * @param citesAndStates answerable questions whose answer does both
 * @param declinedAnswerable answerable questions answered {@code no_evidence}
 * @param declinedUnanswerable unanswerable questions answered {@code no_evidence}
 * @param partialAnswerable answerable questions answered {@code partial}: not a full pass
 * @param partialUnanswerable unanswerable questions answered {@code partial}: right, as the answer
 *     says the documents lack part of what is asked
 * @param latencyMs run latency per question: mean, median and 95th percentile, in milliseconds
 * @param results one entry per question, in file order
 */
public record DocumentAnswerReport(
    String schemaVersion,
    String documents,
    List<String> questionFiles,
    String finishedAt,
    int questions,
    int answerable,
    int unanswerable,
    long records,
    long chunks,
    String model,
    String synthesizer,
    double indexSeconds,
    Search search,
    int citesExpected,
    int statesFact,
    int citesAndStates,
    int declinedAnswerable,
    int declinedUnanswerable,
    int partialAnswerable,
    int partialUnanswerable,
    AnswerReport.Latency latencyMs,
    List<Result> results) {

  /** Version of this report's JSON shape. */
  public static final String SCHEMA_VERSION = "document_answer_eval.v1";

  public DocumentAnswerReport {
    questionFiles = List.copyOf(questionFiles);
    results = List.copyOf(results);
  }

  /**
   * Search quality over the answerable questions: the share with the first expected file within the
   * first 1, 3 and 10 records, and the mean reciprocal rank of the first expected file within the
   * first 10.
   */
  public record Search(double hitAt1, double hitAt3, double hitAt10, double mrrAt10) {}

  /**
   * The outcome of one question.
   *
   * @param id the question's id
   * @param question the question
   * @param expect the expected file names (empty: unanswerable)
   * @param fact the fact a correct answer states, or empty
   * @param searchRank the 1-based search rank of the first expected file in the first 10, or 0
   * @param citesExpected whether the answer cites an expected file
   * @param statesFact whether the answer contains the fact
   * @param declined whether the answer is {@code no_evidence}
   * @param partial whether the answer is {@code partial}: it names what the documents lack
   * @param status the run's status ({@code ok}, {@code no_evidence}, ...)
   * @param stopReason why the run stopped
   * @param millis run latency
   * @param answer the answer text
   * @param citations the cited record keys
   */
  public record Result(
      String id,
      String question,
      List<String> expect,
      String fact,
      int searchRank,
      boolean citesExpected,
      boolean statesFact,
      boolean declined,
      boolean partial,
      String status,
      String stopReason,
      long millis,
      String answer,
      List<String> citations) {

    public Result {
      expect = List.copyOf(expect);
      citations = List.copyOf(citations);
    }

    /** Whether the documents answer the question. */
    public boolean answerable() {
      return !expect.isEmpty();
    }

    /**
     * Whether the answer is what the question wants: for an answerable question cited, stated and
     * neither declined nor partial; for an unanswerable one declined or partial (the answer says
     * what the documents lack).
     */
    public boolean passed() {
      return answerable()
          ? citesExpected && statesFact && !declined && !partial
          : declined || partial;
    }

    /** What brain's status is for a question it failed on: a fault of brain's, not an answer. */
    static final String FAILED = "failed";

    /** Whether brain failed on the question ({@value #FAILED}): a fault, not an answer. */
    public boolean failed() {
      return FAILED.equals(status);
    }

    /** One progress line. */
    public String line() {
      String outcome =
          answerable()
              ? (citesExpected ? "cites" : "-") + " " + (statesFact ? "fact" : "-")
              : declined ? "declined" : partial ? "partial" : "answered";
      return String.format(
          Locale.ROOT, "%-10s %-3s %-14s %6d ms  %s", id, rank(), outcome, millis, status);
    }

    private String rank() {
      return !answerable() ? "" : searchRank == 0 ? ">10" : "#" + searchRank;
    }
  }

  /**
   * The median length in characters of the answers to the answerable questions that were not
   * declined (the mean of the two middle ones for an even count); 0 when there are none.
   */
  public double medianAnswerChars() {
    int[] lengths =
        results.stream()
            .filter(r -> r.answerable() && !r.declined() && r.answer() != null)
            .mapToInt(r -> r.answer().length())
            .sorted()
            .toArray();
    int n = lengths.length;
    return n == 0 ? 0 : (lengths[(n - 1) / 2] + lengths[n / 2]) / 2.0;
  }

  /** The summary lines. */
  public String summary() {
    var t = new StringBuilder();
    t.append(
        String.format(
            Locale.ROOT,
            "search (%d answerable): hit@1 %.3f  hit@3 %.3f  hit@10 %.3f  MRR@10 %.3f%n",
            answerable,
            search.hitAt1(),
            search.hitAt3(),
            search.hitAt10(),
            search.mrrAt10()));
    t.append(
        String.format(
            Locale.ROOT,
            "answers: cite an expected file %s   state the fact %s   both %s   declined %d"
                + "   partial %d   median %.0f chars%n",
            ofAnswerable(citesExpected),
            ofAnswerable(statesFact),
            ofAnswerable(citesAndStates),
            declinedAnswerable,
            partialAnswerable,
            medianAnswerChars()));
    if (unanswerable > 0) {
      int right = declinedUnanswerable + partialUnanswerable;
      t.append(
          String.format(
              Locale.ROOT,
              "unanswerable: declined or partial %d/%d (%.1f%%; declined %d, partial %d)%n",
              right,
              unanswerable,
              100.0 * right / unanswerable,
              declinedUnanswerable,
              partialUnanswerable));
    }
    List<String> failed = results.stream().filter(Result::failed).map(Result::id).toList();
    if (!failed.isEmpty()) {
      t.append("brain failed on ")
          .append(failed.size())
          .append(" question(s), a fault to fix (their answers say what): ")
          .append(String.join(", ", failed))
          .append(String.format("%n"));
    }
    t.append(
        String.format(
            Locale.ROOT,
            "latency ms mean %.0f  p50 %.0f  p95 %.0f   (%d questions, %d records, %s"
                + " synthesizer)",
            latencyMs.mean(),
            latencyMs.p50(),
            latencyMs.p95(),
            questions,
            records,
            synthesizer));
    return t.toString();
  }

  private String ofAnswerable(int count) {
    return String.format(
        Locale.ROOT,
        "%d/%d (%.1f%%)",
        count,
        answerable,
        answerable == 0 ? 0.0 : 100.0 * count / answerable);
  }

  /** One paragraph per question that did not pass: what it expected and what it got. */
  public List<String> misses() {
    return results.stream()
        .filter(r -> !r.passed())
        .map(
            r ->
                String.format(
                    Locale.ROOT,
                    "%s%s  %s%n  expect: %s   fact: %s   search rank: %s   status: %s%n  answer: %s",
                    r.id(),
                    missTags(r),
                    r.question(),
                    r.answerable() ? String.join(", ", r.expect()) : "(unanswerable)",
                    r.fact().isEmpty() ? "-" : r.fact(),
                    r.searchRank() == 0 ? "-" : "#" + r.searchRank(),
                    r.status(),
                    r.answer() == null ? "" : r.answer().replace('\n', ' ')))
        .toList();
  }

  private static String missTags(Result r) {
    if (!r.answerable()) {
      return " [answered]";
    }
    var t = new StringBuilder();
    if (r.declined()) {
      t.append(" [declined]");
    }
    if (r.partial()) {
      t.append(" [partial]");
    }
    if (!r.citesExpected()) {
      t.append(" [no expected citation]");
    }
    if (!r.statesFact()) {
      t.append(" [no fact]");
    }
    return t.toString();
  }
}
