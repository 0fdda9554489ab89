package dev.brain.evals;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DocumentAnswerReportTest {

  private static DocumentAnswerReport.Result result(
      String id, boolean answerable, boolean stated, String status) {
    return new DocumentAnswerReport.Result(
        id,
        "question " + id,
        answerable ? List.of("a.md") : List.of(),
        answerable ? "fact" : "",
        answerable ? 1 : 0,
        answerable && stated,
        answerable && stated,
        status.equals("no_evidence"),
        status.equals("partial"),
        status,
        "done",
        10,
        "an answer",
        List.of());
  }

  @Test
  void aPartialAnswerIsRightForAnUnanswerableQuestionAndNotAFullPassForAnAnswerableOne() {
    assertThat(result("u1", false, false, "partial").passed()).isTrue();
    assertThat(result("u2", false, false, "no_evidence").passed()).isTrue();
    assertThat(result("u3", false, false, "ok").passed()).isFalse();
    assertThat(result("a1", true, true, "ok").passed()).isTrue();
    assertThat(result("a2", true, true, "partial").passed()).isFalse();
    assertThat(result("u1", false, false, "partial").line()).contains("partial");
  }

  @Test
  void theSummaryCountsPartialAnswersApartFromDeclinedOnes() {
    var results =
        List.of(
            result("a1", true, true, "ok"),
            result("a2", true, true, "partial"),
            result("u1", false, false, "partial"),
            result("u2", false, false, "no_evidence"),
            result("u3", false, false, "ok"));
    var report =
        new DocumentAnswerReport(
            DocumentAnswerReport.SCHEMA_VERSION,
            "docs",
            List.of("q.jsonl"),
            "2026-11-28T00:00:00Z",
            5,
            2,
            3,
            5,
            5,
            "model",
            "extractive",
            0,
            new DocumentAnswerReport.Search(1, 1, 1, 1),
            2,
            2,
            2,
            0,
            1,
            1,
            1,
            new AnswerReport.Latency(10, 10, 10),
            results);

    assertThat(report.summary())
        .contains("declined 0   partial 1")
        .contains("unanswerable: declined or partial 2/3 (66.7%; declined 1, partial 1)")
        .doesNotContain("brain failed");
    assertThat(report.misses()).hasSize(2);
    assertThat(report.misses().get(0)).startsWith("a2 [partial]");
    assertThat(report.misses().get(1)).startsWith("u3 [answered]");
  }

  @Test
  void theSummaryNamesTheQuestionsBrainFailedOn() {
    var results =
        List.of(
            result("a1", true, true, "ok"),
            result("a2", true, false, DocumentAnswerReport.Result.FAILED),
            result("u1", false, false, DocumentAnswerReport.Result.FAILED));
    var report =
        new DocumentAnswerReport(
            DocumentAnswerReport.SCHEMA_VERSION,
            "docs",
            List.of("q.jsonl"),
            "2026-11-29T00:00:00Z",
            3,
            2,
            1,
            5,
            5,
            "model",
            "extractive",
            0,
            new DocumentAnswerReport.Search(1, 1, 1, 1),
            1,
            1,
            1,
            0,
            0,
            0,
            0,
            new AnswerReport.Latency(10, 10, 10),
            results);

    assertThat(report.summary()).contains("brain failed on 2 question(s)").contains("a2, u1");
    assertThat(results.get(1).passed()).isFalse();
    assertThat(results.get(2).passed()).isFalse();
  }

  @Test
  void theSummaryGivesTheMedianLengthOfTheAnswersToAnswerableQuestionsNotDeclined() {
    var results =
        List.of(
            answered("a", "x".repeat(100)),
            answered("b", "x".repeat(300)),
            answered("c", "x".repeat(200)),
            answered("d", "x".repeat(1000)),
            result("e", true, false, "no_evidence"),
            result("u", false, false, "ok"));
    var report =
        new DocumentAnswerReport(
            DocumentAnswerReport.SCHEMA_VERSION,
            "docs",
            List.of("q.jsonl"),
            "2026-11-28T00:00:00Z",
            6,
            5,
            1,
            5,
            5,
            "model",
            "extractive",
            0,
            new DocumentAnswerReport.Search(1, 1, 1, 1),
            4,
            4,
            4,
            1,
            0,
            0,
            0,
            new AnswerReport.Latency(10, 10, 10),
            results);

    assertThat(report.medianAnswerChars()).isEqualTo(250.0);
    assertThat(report.summary()).contains("median 250 chars");
  }

  private static DocumentAnswerReport.Result answered(String id, String answer) {
    var r = result(id, true, true, "ok");
    return new DocumentAnswerReport.Result(
        r.id(),
        r.question(),
        r.expect(),
        r.fact(),
        r.searchRank(),
        r.citesExpected(),
        r.statesFact(),
        r.declined(),
        r.partial(),
        r.status(),
        r.stopReason(),
        r.millis(),
        answer,
        r.citations());
  }
}
