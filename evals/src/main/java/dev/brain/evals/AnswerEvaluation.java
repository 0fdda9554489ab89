package dev.brain.evals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.Brain;
import dev.brain.index.SyncListener;
import dev.brain.index.SyncReport;
import dev.brain.research.run.RunResult;
import dev.brain.research.synthesis.Citation;
import dev.brain.retrieval.FusionMode;
import dev.brain.retrieval.Lane;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Evaluates brain's answers on a question set with gold answers: a BEIR-layout folder whose {@code
 * queries.jsonl} lines carry the gold answer in {@code metadata.answer}. Indexes the corpus into a
 * brain of its own (a cache data directory with the user's settings), measures retrieval per lane
 * and fused, then runs every judged question as {@link Brain#request(String)} makes it from {@code
 * brain.yaml}, answered by the extractive synthesizer with the deterministic planner and no trace,
 * and reports how often the answer contains the gold answer, how often it cites a document judged
 * relevant, and how long a run takes.
 *
 * <p>Containment is case-, accent- and punctuation-insensitive on whole words; the citation keys
 * themselves are left out of the answer text before the check.
 */
public final class AnswerEvaluation {

  private final Options options;

  /**
   * What to evaluate.
   *
   * @param dataset the folder (corpus.jsonl, queries.jsonl with metadata.answer, qrels/test.tsv)
   * @param maxQueries evaluate only the first N judged questions (0 = all)
   */
  public record Options(Path dataset, int maxQueries) {}

  /** An evaluation with the given options. */
  public AnswerEvaluation(Options options) {
    this.options = options;
  }

  /**
   * Runs the evaluation on {@code brain}, whose index the corpus is synced into (give it a data
   * directory of its own: see {@code BrainConfig.forEvaluation}).
   *
   * @param sync receives indexing progress of the cache index
   * @param log receives one line per finished retrieval condition and question
   * @throws EvalException if the folder is not such a folder or a question has no gold answer
   */
  public AnswerReport run(Brain brain, SyncListener sync, Consumer<String> log) throws IOException {
    var dataset = BeirDataset.load(options.dataset());
    var answers = readAnswers(dataset.dir().resolve("queries.jsonl"));
    var queries = new LinkedHashMap<String, String>();
    for (var q : dataset.queries().entrySet()) {
      if (options.maxQueries() > 0 && queries.size() >= options.maxQueries()) {
        break;
      }
      if (!answers.containsKey(q.getKey())) {
        throw new EvalException(
            dataset.dir().resolve("queries.jsonl")
                + ": query "
                + q.getKey()
                + " has no metadata.answer (the gold answer this evaluation needs)");
      }
      queries.put(q.getKey(), q.getValue());
    }
    SyncReport syncReport = brain.index(List.of(dataset.corpus()), sync);
    var retrieval = new ArrayList<BeirReport.Condition>();
    for (var lanes : BeirEvaluation.conditions(Set.of(Lane.BM25, Lane.VECTOR))) {
      var c =
          BeirEvaluation.evaluate(brain::search, lanes, FusionMode.RRF, queries, dataset.qrels());
      retrieval.add(c);
      log.accept(c.line());
    }
    var results = new ArrayList<AnswerReport.Question>();
    for (var q : queries.entrySet()) {
      var result = ask(brain, q.getKey(), q.getValue(), answers.get(q.getKey()), dataset.qrels());
      results.add(result);
      log.accept(
          String.format(
              Locale.ROOT,
              "%-14s %-5s %-5s %6d ms  %s",
              result.id(),
              result.containsGold() ? "gold" : "-",
              result.citesRelevant() ? "cites" : "-",
              result.millis(),
              result.status()));
    }
    int n = results.size();
    var millis = results.stream().mapToLong(AnswerReport.Question::millis).sorted().toArray();
    return new AnswerReport(
        AnswerReport.SCHEMA_VERSION,
        dataset.dir().toString(),
        Instant.now().toString(),
        n,
        brain.stats().records(),
        brain.stats().chunks(),
        brain.metadata().modelId(),
        "extractive",
        syncReport.elapsed().toMillis() / 1000.0,
        share(results.stream().filter(AnswerReport.Question::containsGold).count(), n),
        share(results.stream().filter(AnswerReport.Question::containsGoldLoosely).count(), n),
        share(results.stream().filter(AnswerReport.Question::citesRelevant).count(), n),
        share(results.stream().filter(r -> isNormal(r.status())).count(), n),
        BeirEvaluation.round(
            results.stream()
                .mapToInt(r -> r.answer() == null ? 0 : r.answer().length())
                .average()
                .orElse(0)),
        new AnswerReport.Latency(
            BeirEvaluation.round(Arrays.stream(millis).average().orElse(0)),
            percentile(millis, 0.5),
            percentile(millis, 0.95)),
        retrieval,
        results);
  }

  private static AnswerReport.Question ask(
      Brain brain, String id, String question, String gold, Map<String, Map<String, Integer>> qrels)
      throws IOException {
    long start = System.nanoTime();
    RunResult run = brain.run(DocumentAnswerEvaluation.request(brain, question), null);
    long millis = (System.nanoTime() - start) / 1_000_000;
    var synthesis = run.synthesis();
    String answer = synthesis == null ? null : synthesis.answer();
    List<String> cited =
        synthesis == null
            ? List.of()
            : synthesis.citations().stream().map(Citation::sourceKey).toList();
    var judged = qrels.getOrDefault(id, Map.of());
    boolean relevant =
        cited.stream().anyMatch(k -> judged.getOrDefault(BeirEvaluation.docId(k), 0) >= 1);
    return new AnswerReport.Question(
        id,
        question,
        gold,
        answer != null && contains(withoutKeys(answer, cited), gold),
        answer != null && containsLoosely(withoutKeys(answer, cited), gold),
        relevant,
        run.status().wireName(),
        run.stopReason().wireName(),
        millis,
        answer,
        cited);
  }

  /**
   * Whether {@code text} contains {@code gold} as whole words, ignoring case, accents, punctuation.
   */
  static boolean contains(String text, String gold) {
    String g = normalize(gold);
    return !g.isBlank() && (" " + normalize(text) + " ").contains(" " + g + " ");
  }

  /**
   * The loose check, for gold answers phrased unlike any text ("Dec 2023", "Manchester City F.C."):
   * every gold word of two or more characters, stop words aside, starts a word of {@code text}.
   */
  static boolean containsLoosely(String text, String gold) {
    if (contains(text, gold)) {
      return true;
    }
    var words = List.of(normalize(text).split(" "));
    var goldWords =
        Arrays.stream(normalize(gold).split(" "))
            .filter(w -> w.length() >= 2 && !STOP_WORDS.contains(w))
            .toList();
    return !goldWords.isEmpty()
        && goldWords.stream().allMatch(g -> words.stream().anyMatch(w -> w.startsWith(g)));
  }

  private static final Set<String> STOP_WORDS =
      Set.of("the", "a", "an", "of", "and", "or", "in", "on", "at", "to", "for", "by", "with");

  /** Lower case, accents removed, every run of non-letters-or-digits one space. */
  static String normalize(String s) {
    String plain = Normalizer.normalize(s, Normalizer.Form.NFD).replaceAll("\\p{M}+", "");
    return plain.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
  }

  private static String withoutKeys(String answer, List<String> keys) {
    String out = answer;
    for (String k : keys) {
      out = out.replace(k, " ");
    }
    return out;
  }

  private static boolean isNormal(String status) {
    return status.equals("ok") || status.equals("ok_truncated");
  }

  private static double share(long count, int n) {
    return n == 0 ? 0 : BeirEvaluation.round((double) count / n);
  }

  static double percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int i = (int) Math.ceil(p * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  private static Map<String, String> readAnswers(Path file) {
    var mapper = new ObjectMapper();
    var out = new LinkedHashMap<String, String>();
    try {
      for (String line : Files.readAllLines(file)) {
        if (line.isBlank()) {
          continue;
        }
        var node = mapper.readTree(line);
        var answer = node.path("metadata").path("answer");
        // Some gold answers are numbers (a year, a count): any scalar counts as its text.
        if (answer.isValueNode() && !answer.isNull() && !answer.asText().isBlank()) {
          out.put(node.path("_id").asText(), answer.asText().strip());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return out;
  }
}
