package dev.brain.evals;

import dev.brain.Brain;
import dev.brain.index.SyncListener;
import dev.brain.index.SyncReport;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.synthesis.Citation;
import dev.brain.research.synthesis.ResearchResult.Outcome;
import dev.brain.retrieval.EvidenceRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Evaluates brain's answers on a folder of real documents with questions about them ({@link
 * DocumentQuestions}): indexes the folder as one collection into a brain of its own (a cache data
 * directory with the user's settings), asks search where the first expected file ranks, runs every
 * question as {@link Brain#request(String)} makes it from {@code brain.yaml} (extractive
 * synthesizer, deterministic planner, no trace) and checks that the answer cites an expected file
 * and states the fact, or, for a question the documents cannot answer, that it is declined ({@code
 * no_evidence}) or answered {@code partial} (the answer names what the documents lack). A {@code
 * partial} answer to an answerable question is counted apart and is not a full pass.
 *
 * <p>The fact is matched case-insensitively in the answer text with its cited keys taken out and
 * whitespace runs read as one space (an answer may wrap a phrase the document has on one line). An
 * answer the user is not shown (its verification failed, or the run was cut short) neither cites
 * nor states anything.
 */
public final class DocumentAnswerEvaluation {

  /** Search results looked at for hit@10 and MRR@10. */
  static final int SEARCH_DEPTH = 10;

  private final Options options;

  /**
   * What to evaluate.
   *
   * @param documents the folder of documents (indexed as one collection)
   * @param questionFiles the question files, read in order
   * @param maxQueries evaluate only the first N questions (0 = all)
   */
  public record Options(Path documents, List<Path> questionFiles, int maxQueries) {

    public Options {
      questionFiles = List.copyOf(questionFiles);
    }
  }

  /** An evaluation with the given options. */
  public DocumentAnswerEvaluation(Options options) {
    this.options = options;
  }

  /**
   * The documents and question files of {@code dir} laid out as a dataset: its {@code corpus/}
   * folder (else {@code dir} itself) and its {@code questions.jsonl} (when there is one), followed
   * by {@code extraQuestions}.
   *
   * @throws EvalException when no question file results
   */
  public static Options layout(Path dir, List<Path> extraQuestions, int maxQueries) {
    Path corpus = dir.resolve("corpus");
    Path documents = Files.isDirectory(corpus) ? corpus : dir;
    var files = new ArrayList<Path>();
    Path own = dir.resolve("questions.jsonl");
    if (Files.isRegularFile(own)) {
      files.add(own);
    }
    files.addAll(extraQuestions);
    if (files.isEmpty()) {
      throw new EvalException(
          dir
              + " has no questions.jsonl and no --questions file was given; questions are JSON"
              + " lines {\"id\", \"q\", \"expect\": [file names], \"fact\"}");
    }
    return new Options(documents, files, maxQueries);
  }

  /**
   * Runs the evaluation on {@code brain}, whose index the documents are synced into (give it a data
   * directory of its own: see {@code BrainConfig.forEvaluation}).
   *
   * @param sync receives indexing progress of the cache index
   * @param log receives one line per finished question
   * @throws EvalException if a question file is malformed
   */
  public DocumentAnswerReport run(Brain brain, SyncListener sync, Consumer<String> log)
      throws IOException {
    List<DocumentQuestions.Question> questions = DocumentQuestions.read(options.questionFiles());
    if (options.maxQueries() > 0 && questions.size() > options.maxQueries()) {
      questions = questions.subList(0, options.maxQueries());
    }
    SyncReport syncReport = brain.index(List.of(options.documents()), sync);
    var results = new ArrayList<DocumentAnswerReport.Result>();
    for (var q : questions) {
      var result = askOrReport(brain, q);
      results.add(result);
      log.accept(result.line());
    }
    var answerable = results.stream().filter(DocumentAnswerReport.Result::answerable).toList();
    var unanswerable = results.stream().filter(r -> !r.answerable()).toList();
    return new DocumentAnswerReport(
        DocumentAnswerReport.SCHEMA_VERSION,
        options.documents().toString(),
        options.questionFiles().stream().map(Path::toString).toList(),
        Instant.now().toString(),
        results.size(),
        answerable.size(),
        unanswerable.size(),
        brain.stats().records(),
        brain.stats().chunks(),
        brain.metadata().modelId(),
        "extractive",
        syncReport.elapsed().toMillis() / 1000.0,
        search(answerable),
        count(answerable, DocumentAnswerReport.Result::citesExpected),
        count(answerable, DocumentAnswerReport.Result::statesFact),
        count(answerable, r -> r.citesExpected() && r.statesFact()),
        count(answerable, DocumentAnswerReport.Result::declined),
        count(unanswerable, DocumentAnswerReport.Result::declined),
        count(answerable, DocumentAnswerReport.Result::partial),
        count(unanswerable, DocumentAnswerReport.Result::partial),
        latency(results),
        results);
  }

  /**
   * The run of an evaluation question: as {@code brain.yaml} makes it, answered by the extractive
   * synthesizer with the deterministic planner (the figures are the built-in answer's), untraced.
   */
  static RunRequest request(Brain brain, String question) {
    return brain
        .request(question)
        .withPlanner(null)
        .withModel(null)
        .withReviewer(null)
        .withSurface("eval")
        .withTrace(false);
  }

  /**
   * {@link #ask}, or, when brain fails on the question with a fault of its own, a result saying so
   * ({@value DocumentAnswerReport.Result#FAILED}, the fault as its answer, neither cited nor
   * stated): one question's bug loses neither the other questions' results nor the report that
   * names it.
   */
  private static DocumentAnswerReport.Result askOrReport(Brain brain, DocumentQuestions.Question q)
      throws IOException {
    try {
      return ask(brain, q);
    } catch (RuntimeException e) {
      return new DocumentAnswerReport.Result(
          q.id(),
          q.question(),
          q.expect(),
          q.fact(),
          0,
          false,
          false,
          false,
          false,
          DocumentAnswerReport.Result.FAILED,
          DocumentAnswerReport.Result.FAILED,
          0,
          "brain failed on this question: " + e,
          List.of());
    }
  }

  private static DocumentAnswerReport.Result ask(Brain brain, DocumentQuestions.Question q)
      throws IOException {
    int rank = searchRank(brain, q);
    long start = System.nanoTime();
    RunResult run = brain.run(request(brain, q.question()), null);
    long millis = (System.nanoTime() - start) / 1_000_000;
    var synthesis = run.synthesis();
    String answer = synthesis == null ? null : synthesis.answer();
    // An answer the verification rejected (or a run cut short) is not shown to the user: it
    // neither cites nor states anything, though its text stays in the report.
    boolean shown = run.shownAnswer();
    List<String> allCited =
        synthesis == null
            ? List.of()
            : synthesis.citations().stream().map(Citation::sourceKey).toList();
    List<String> cited = shown ? allCited : List.of();
    boolean citesExpected = false;
    for (String key : cited) {
      citesExpected |= names(brain, key, q.expect());
    }
    return new DocumentAnswerReport.Result(
        q.id(),
        q.question(),
        q.expect(),
        q.fact(),
        rank,
        citesExpected,
        q.answerable() && shown && answer != null && states(answer, cited, q.fact()),
        run.status() == Outcome.NO_EVIDENCE,
        run.status() == Outcome.PARTIAL,
        run.status().wireName(),
        run.stopReason().wireName(),
        millis,
        answer,
        allCited);
  }

  /** The 1-based rank of the first expected file among the first records of search, or 0. */
  private static int searchRank(Brain brain, DocumentQuestions.Question q) throws IOException {
    if (!q.answerable()) {
      return 0;
    }
    var options = brain.searchOptions().toBuilder().limit(SEARCH_DEPTH).build();
    List<EvidenceRow> rows = brain.search(q.question(), options).rows();
    for (int i = 0; i < rows.size(); i++) {
      if (names(brain, rows.get(i).sourceKey(), q.expect().subList(0, 1))) {
        return i + 1;
      }
    }
    return 0;
  }

  /**
   * Whether record {@code key} comes from one of the files named (by name, or by the end of its
   * path): a note's key holds its path, a saved source's record its origin.
   */
  static boolean names(Brain brain, String key, List<String> files) throws IOException {
    String origin = brain.get(key).map(d -> d.record().origin()).filter(o -> o != null).orElse(key);
    String path = origin.replace('\\', '/');
    return files.stream()
        .anyMatch(
            f ->
                key.endsWith("/" + f)
                    || key.endsWith(":" + f)
                    || path.endsWith("/" + f)
                    || path.equals(f));
  }

  /**
   * Whether {@code answer}, without its cited keys, contains {@code fact} ignoring case and reading
   * every whitespace run as one space.
   */
  static boolean states(String answer, List<String> cited, String fact) {
    String text = answer;
    for (String key : cited) {
      text = text.replace(key, " ");
    }
    return flat(text).contains(flat(fact));
  }

  private static String flat(String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
  }

  private static DocumentAnswerReport.Search search(List<DocumentAnswerReport.Result> answerable) {
    int n = answerable.size();
    if (n == 0) {
      return new DocumentAnswerReport.Search(0, 0, 0, 0);
    }
    double mrr =
        answerable.stream().mapToDouble(r -> r.searchRank() == 0 ? 0 : 1.0 / r.searchRank()).sum();
    return new DocumentAnswerReport.Search(
        hits(answerable, 1),
        hits(answerable, 3),
        hits(answerable, 10),
        BeirEvaluation.round(mrr / n));
  }

  private static double hits(List<DocumentAnswerReport.Result> rows, int k) {
    long hit = rows.stream().filter(r -> r.searchRank() > 0 && r.searchRank() <= k).count();
    return BeirEvaluation.round((double) hit / rows.size());
  }

  private static int count(
      List<DocumentAnswerReport.Result> rows,
      java.util.function.Predicate<DocumentAnswerReport.Result> test) {
    return (int) rows.stream().filter(test).count();
  }

  private static AnswerReport.Latency latency(List<DocumentAnswerReport.Result> results) {
    long[] millis =
        results.stream().mapToLong(DocumentAnswerReport.Result::millis).sorted().toArray();
    return new AnswerReport.Latency(
        BeirEvaluation.round(Arrays.stream(millis).average().orElse(0)),
        AnswerEvaluation.percentile(millis, 0.5),
        AnswerEvaluation.percentile(millis, 0.95));
  }
}
