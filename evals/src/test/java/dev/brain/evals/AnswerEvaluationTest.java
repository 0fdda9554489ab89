package dev.brain.evals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.Brain;
import dev.brain.BrainConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link AnswerEvaluation}: the containment check, and a run over a tiny question set. */
class AnswerEvaluationTest {

  @TempDir Path dir;

  @Test
  void reportsContainmentRelevantCitationsAndRetrievalOfATinySet() throws IOException {
    Path data = Files.createDirectories(dir.resolve("tiny"));
    Files.writeString(
        data.resolve("corpus.jsonl"),
        """
        {"_id": "d1", "title": "", "text": "The Berlin Marathon 2024 was won by Milkesa Mengesha in 2:03:17."}
        {"_id": "d2", "title": "", "text": "Compost needs green and brown material in equal parts."}
        {"_id": "d3", "title": "", "text": "Espresso machines need descaling every eight weeks with medium water."}
        """);
    Files.writeString(
        data.resolve("queries.jsonl"),
        """
        {"_id": "q1", "text": "Who won the Berlin Marathon 2024?", "metadata": {"answer": "Milkesa Mengesha"}}
        {"_id": "q2", "text": "How often should espresso machines be descaled?", "metadata": {"answer": "every eight weeks"}}
        """);
    Files.createDirectories(data.resolve("qrels"));
    Files.writeString(
        data.resolve("qrels/test.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t2\nq2\td3\t2\n");
    var lines = new ArrayList<String>();

    AnswerReport report;
    try (var brain = Brain.open(BrainConfig.defaults(dir).forEvaluation(dir.resolve("eval")))) {
      report =
          new AnswerEvaluation(new AnswerEvaluation.Options(data, 0)).run(brain, null, lines::add);
    }

    assertThat(report.questions()).isEqualTo(2);
    assertThat(report.records()).isEqualTo(3);
    assertThat(report.answerContainsGold()).isEqualTo(1.0);
    assertThat(report.citesRelevant()).isEqualTo(1.0);
    assertThat(report.retrieval())
        .extracting(BeirReport.Condition::name)
        .contains("bm25", "vector", "hybrid(bm25+vector)");
    assertThat(report.results().get(0).citations()).contains("doc:d1");
    assertThat(report.results().get(1).citations()).contains("doc:d3");
    assertThat(report.misses()).isEmpty();
    assertThat(lines).hasSize(5);
  }

  @Test
  void containmentIgnoresCasePunctuationAndAccents() {
    assertThat(AnswerEvaluation.contains("Manchester City F.C. won [1].", "Manchester City F.C."))
        .isTrue();
    assertThat(AnswerEvaluation.contains("The MVP was LEBRON JAMES.", "LeBron James")).isTrue();
    assertThat(AnswerEvaluation.contains("Pelé scored", "Pele")).isTrue();
    assertThat(AnswerEvaluation.contains("It won in 2023, again.", "2023")).isTrue();
  }

  @Test
  void containmentMatchesWholeWordsOnly() {
    assertThat(AnswerEvaluation.contains("He won seventeen titles.", "seven")).isFalse();
    assertThat(AnswerEvaluation.contains("anything", "")).isFalse();
  }

  @Test
  void looseContainmentWantsEveryGoldWordAsTheStartOfAWord() {
    assertThat(AnswerEvaluation.containsLoosely("announced in December 2023", "Dec 2023")).isTrue();
    assertThat(AnswerEvaluation.containsLoosely("Manchester City won", "Manchester City F.C."))
        .isTrue();
    assertThat(AnswerEvaluation.containsLoosely("Manchester won", "Manchester City F.C."))
        .isFalse();
  }
}
