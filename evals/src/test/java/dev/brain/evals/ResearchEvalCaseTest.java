package dev.brain.evals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading case files: bad input fails with the file, the line and what is wrong. */
class ResearchEvalCaseTest {

  @TempDir Path dir;

  private Path file(String... lines) throws IOException {
    return Files.write(dir.resolve("cases.jsonl"), List.of(lines));
  }

  @Test
  void readsCasesSkippingBlankAndCommentLines() throws IOException {
    Path f =
        file(
            "// a comment",
            "{\"schema_version\":\"research_eval_case.v1\",\"id\":\"a\",\"question\":\"q?\","
                + "\"expected_top_keys\":[\"k\"],\"top_n\":2,\"answer_status\":\"ok\"}",
            "",
            "{\"schema_version\":\"research_eval_case.v1\",\"id\":\"b\",\"question\":\"r?\","
                + "\"reviewed\":false}");

    List<ResearchEvalCase> cases = ResearchEvalCase.read(List.of(f));

    assertThat(cases).extracting(ResearchEvalCase::id).containsExactly("a", "b");
    assertThat(cases.get(0).effectiveTopN()).isEqualTo(2);
    assertThat(cases.get(0).isReviewed()).isTrue();
    assertThat(cases.get(1).isReviewed()).isFalse();
    assertThat(cases.get(1).effectiveTopN()).isEqualTo(ResearchEvalCase.DEFAULT_TOP_N);
  }

  @Test
  void aMalformedLineNamesTheFileAndLine() throws IOException {
    Path f =
        file(
            "{\"schema_version\":\"research_eval_case.v1\",\"id\":\"a\",\"question\":\"q?\"}",
            "{\"schema_version\":\"research_eval_case.v1\",\"id\":\"b\",");

    assertThatThrownBy(() -> ResearchEvalCase.read(List.of(f)))
        .isInstanceOf(EvalException.class)
        .hasMessageStartingWith(f + ":2: not a JSON case object");
  }

  @Test
  void anUnknownFieldIsRejectedWithItsName() throws IOException {
    Path f =
        file(
            "{\"schema_version\":\"research_eval_case.v1\",\"id\":\"a\",\"question\":\"q?\","
                + "\"expected_kyes\":[\"k\"]}");

    assertThatThrownBy(() -> ResearchEvalCase.read(List.of(f)))
        .isInstanceOf(EvalException.class)
        .hasMessageStartingWith(f + ":1: unknown field 'expected_kyes'")
        .hasMessageContaining("expected_keys");
  }

  @Test
  void aWrongSchemaVersionADuplicateIdAndAMissingQuestionAreRejected() throws IOException {
    Path wrong = file("{\"schema_version\":\"v0\",\"id\":\"a\",\"question\":\"q?\"}");
    assertThatThrownBy(() -> ResearchEvalCase.read(List.of(wrong)))
        .hasMessage(wrong + ":1: schema_version must be \"research_eval_case.v1\", not \"v0\"");

    Path dup =
        file(
            "{\"schema_version\":\"research_eval_case.v1\",\"id\":\"a\",\"question\":\"q?\"}",
            "{\"schema_version\":\"research_eval_case.v1\",\"id\":\"a\",\"question\":\"r?\"}");
    assertThatThrownBy(() -> ResearchEvalCase.read(List.of(dup)))
        .hasMessage(dup + ":2: duplicate case id 'a'");

    Path noQuestion = file("{\"schema_version\":\"research_eval_case.v1\",\"id\":\"a\"}");
    assertThatThrownBy(() -> ResearchEvalCase.read(List.of(noQuestion)))
        .hasMessage(noQuestion + ":1: case 'a' needs a \"question\"");
  }

  @Test
  void aMissingFileIsAClearError() {
    Path missing = dir.resolve("nope.jsonl");
    assertThatThrownBy(() -> ResearchEvalCase.read(List.of(missing)))
        .isInstanceOf(EvalException.class)
        .hasMessageStartingWith("cannot read case file " + missing);
  }

  @Test
  void aDraftFromATraceKeepsKeysAndStatusesAndOnlyWithTheFlagAnswerText() throws IOException {
    var trace =
        new ObjectMapper()
            .readTree(
                """
                {"run_id":"20261124-0101-abc","question":"How often should I descale?",
                 "stop_reason":"enough_evidence","status":"ok",
                 "continuity":{"prior_questions":["earlier?"],"pinned_evidence_keys":["p"]},
                 "judge":{"verdict":"enough_evidence","retry_action":"none"},
                 "synthesis":{"answer_status":"ok",
                   "answer":"From saved sources:\\n- Descale every eight weeks. (pdf) [k1]",
                   "citations":[{"source_key":"k1"}]},
                 "pack":{"query_plan":{"query_family":"fact_lookup","planner":"deterministic"},
                   "evidence":[{"source_key":"k1"},{"source_key":"k2"},{"source_key":"k3"},
                     {"source_key":"k4"}]}}
                """);

    ResearchEvalCase draft = CaseProposal.fromTrace(trace, false);
    assertThat(draft.isReviewed()).isFalse();
    assertThat(draft.id()).isEqualTo("run-20261124-0101-abc");
    assertThat(draft.expectedKeys()).containsExactly("k1", "k2", "k3");
    assertThat(draft.expectedTopKeys()).containsExactly("k1");
    assertThat(draft.citationKeys()).containsExactly("k1");
    assertThat(draft.priorQuestions()).containsExactly("earlier?");
    assertThat(draft.pinnedKeys()).containsExactly("p");
    assertThat(draft.answerStatus()).isEqualTo("ok");
    assertThat(draft.stopReason()).isEqualTo("enough_evidence");
    assertThat(draft.queryFamily()).isEqualTo("fact_lookup");
    assertThat(draft.judgeVerdict()).isEqualTo("enough_evidence");
    assertThat(draft.retryAction()).isEqualTo("none");
    assertThat(draft.planner()).isNull();
    assertThat(draft.requiredText()).isEmpty();
    // The draft is a valid case line.
    assertThat(ResearchEvalCase.parse(draft.toJsonLine(), "draft")).isEqualTo(draft);

    assertThat(CaseProposal.fromTrace(trace, true).requiredText())
        .containsExactly("Descale every eight weeks.");
  }

  @Test
  void aDraftIsAppendedToACaseFileInNewFoldersOnceAndTheFileStillLoads() throws IOException {
    var trace =
        new ObjectMapper()
            .readTree(
                """
                {"run_id":"r1","question":"How often should I descale?","stop_reason":"no_evidence",
                 "pack":{"evidence":[]}}
                """);
    ResearchEvalCase draft = CaseProposal.fromTrace(trace, false);
    Path cases = dir.resolve("evals/cases/lab.jsonl");
    Files.createDirectories(cases.getParent());
    Files.writeString(cases, "// reviewed by hand below\n");

    CaseProposal.append(draft, cases);
    assertThat(ResearchEvalCase.read(List.of(cases))).containsExactly(draft);
    assertThatThrownBy(() -> CaseProposal.append(draft, cases))
        .isInstanceOf(EvalException.class)
        .hasMessageContaining("already holds a case with id 'run-r1'");
    assertThat(Files.readAllLines(cases)).hasSize(2);

    Path fresh = dir.resolve("new/folder/cases.jsonl");
    CaseProposal.append(draft, fresh);
    assertThat(Files.readString(fresh)).isEqualTo(CaseProposal.line(draft) + "\n");
  }
}
