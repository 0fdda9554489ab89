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
        .hasMessageStartingWith(f + ":1: case 'a': unknown field 'expected_kyes'")
        .hasMessageContaining("expected_keys")
        .hasMessageContaining("forbid_query_variants")
        .hasMessageContaining("expect_planner_error_contains");
  }

  @Test
  void theContractsAssertionsAreRead() throws IOException {
    Path f =
        file(
            "{\"schema_version\":\"research_eval_case.v1\",\"id\":\"a\",\"question\":\"q?\","
                + "\"reviewed\":true,\"expect_any_of\":[[\"k1\",\"k2\"],[\"k3\"]],"
                + "\"forbid_query_variants\":[\"lima\"],\"forbid_concepts\":[\"c\"],"
                + "\"planner_model\":\"ollama/planner\","
                + "\"expect_planner_error_contains\":\"not found\","
                + "\"min_retrieval_signals\":3,\"forbid_citation_source_keys\":[\"k4\"],"
                + "\"expect_matched_terms\":[\"t\"],\"forbid_missing_terms\":[\"u\"]}");

    ResearchEvalCase c = ResearchEvalCase.read(List.of(f)).get(0);

    assertThat(c.expectAnyOf()).containsExactly(List.of("k1", "k2"), List.of("k3"));
    assertThat(c.forbidQueryVariants()).containsExactly("lima");
    assertThat(c.forbidConcepts()).containsExactly("c");
    assertThat(c.plannerModel()).isEqualTo("ollama/planner");
    assertThat(c.expectPlannerErrorContains()).isEqualTo("not found");
    assertThat(c.minRetrievalSignals()).isEqualTo(3);
    assertThat(c.forbidCitationSourceKeys()).containsExactly("k4");
    assertThat(c.expectMatchedTerms()).containsExactly("t");
    assertThat(c.forbidMissingTerms()).containsExactly("u");
    assertThat(ResearchEvalCase.parse(c.toJsonLine(), "again")).isEqualTo(c);
  }

  @Test
  void disablePlannerIsReadAndRefusedWithThePlannerModelAssertionsItCanNeverMeet()
      throws IOException {
    String head = "{\"schema_version\":\"research_eval_case.v1\",\"question\":\"q?\",";
    ResearchEvalCase off =
        ResearchEvalCase.read(
                List.of(
                    file(
                        head
                            + "\"id\":\"a\",\"reviewed\":true,\"disable_planner\":true,"
                            + "\"planner\":\"deterministic\"}")))
            .get(0);

    assertThat(off.plannerDisabled()).isTrue();
    assertThat(off.toJsonLine()).contains("\"disable_planner\":true");
    assertThat(ResearchEvalCase.parse(off.toJsonLine(), "again")).isEqualTo(off);
    assertThat(ResearchEvalCase.parse(head + "\"id\":\"b\"}", "x").plannerDisabled()).isFalse();
    for (String field :
        List.of("\"planner_model\":\"ollama/p\"", "\"expect_planner_error_contains\":\"x\"")) {
      Path f = file(head + "\"id\":\"c\",\"disable_planner\":true," + field + "}");
      assertThatThrownBy(() -> ResearchEvalCase.read(List.of(f)))
          .isInstanceOf(EvalException.class)
          .hasMessageStartingWith(f + ":1: case 'c': disable_planner runs the case without a");
    }
  }

  @Test
  void aFieldOfTheWrongTypeNamesTheCaseTheFieldAndWhatItMustBe() throws IOException {
    String head = "{\"schema_version\":\"research_eval_case.v1\",\"id\":\"w\",\"question\":\"q?\",";
    assertThatThrownBy(
            () -> ResearchEvalCase.parse(head + "\"min_retrieval_signals\":\"two\"}", "f:1"))
        .isInstanceOf(EvalException.class)
        .hasMessage(
            "f:1: case 'w': field 'min_retrieval_signals' must be a whole number, not \"two\"");
    assertThatThrownBy(() -> ResearchEvalCase.parse(head + "\"min_retrieval_signals\":2.5}", "f:1"))
        .hasMessage("f:1: case 'w': field 'min_retrieval_signals' must be a whole number, not 2.5");
    assertThatThrownBy(() -> ResearchEvalCase.parse(head + "\"forbid_concepts\":\"bm25\"}", "f:1"))
        .hasMessage(
            "f:1: case 'w': field 'forbid_concepts' must be a list of strings, not \"bm25\"");
    assertThatThrownBy(
            () -> ResearchEvalCase.parse(head + "\"expect_any_of\":[\"a\",\"b\"]}", "f:1"))
        .hasMessageStartingWith(
            "f:1: case 'w': field 'expect_any_of' must be a list of lists of strings");
    assertThatThrownBy(() -> ResearchEvalCase.parse(head + "\"planner_model\":7}", "f:1"))
        .hasMessage("f:1: case 'w': field 'planner_model' must be a string, not 7");
    assertThatThrownBy(
            () -> ResearchEvalCase.parse(head + "\"expect_planner_error_contains\":true}", "f:1"))
        .hasMessage(
            "f:1: case 'w': field 'expect_planner_error_contains' must be a string, not true");
    assertThatThrownBy(() -> ResearchEvalCase.parse(head + "\"include_related\":\"yes\"}", "f:1"))
        .hasMessage("f:1: case 'w': field 'include_related' must be true or false, not \"yes\"");
    assertThatThrownBy(() -> ResearchEvalCase.parse(head + "\"min_retrieval_signals\":0}", "f:1"))
        .hasMessage("f:1: case 'w': min_retrieval_signals must be at least 1");
    assertThatThrownBy(() -> ResearchEvalCase.parse(head + "\"expect_any_of\":[[]]}", "f:1"))
        .hasMessage("f:1: case 'w': every expect_any_of group needs at least one key");
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
  void aRejectedDraftYieldsACaseExpectingTheRejectionNeverItsTextOrItsInventedKeys()
      throws IOException {
    var trace =
        new ObjectMapper()
            .readTree(
                """
                {"run_id":"r-rejected","question":"How often should I descale?",
                 "stop_reason":"verification_failed","status":"verification_failed",
                 "synthesis":{"answer_status":"ok",
                   "answer":"Descale every week. [invented:key]",
                   "citations":[{"source_key":"invented:key"},{"source_key":"k1"}]},
                 "pack":{"evidence":[{"source_key":"k1"},{"source_key":"k2"}]}}
                """);

    ResearchEvalCase draft = CaseProposal.fromTrace(trace, true);

    assertThat(draft.stopReason()).isEqualTo("verification_failed");
    assertThat(draft.answerStatus()).isNull();
    assertThat(draft.requiredText()).isEmpty();
    assertThat(draft.citationKeys()).isEmpty();
    assertThat(draft.expectedKeys()).containsExactly("k1", "k2");
    assertThat(ResearchEvalCase.parse(draft.toJsonLine(), "draft")).isEqualTo(draft);
  }

  @Test
  void aDraftNeverExpectsAKeyThatWasNotEvidenceOfTheRun() throws IOException {
    var trace =
        new ObjectMapper()
            .readTree(
                """
                {"run_id":"r2","question":"How often should I descale?",
                 "stop_reason":"enough_evidence","status":"ok",
                 "synthesis":{"answer_status":"ok","answer":"Every eight weeks. [k9]",
                   "citations":[{"source_key":"k9"},{"source_key":"tag:1"}]},
                 "pack":{"evidence":[{"source_key":"k1"}],
                   "exact_tag_evidence":[{"source_key":"tag:1"}]}}
                """);

    ResearchEvalCase draft = CaseProposal.fromTrace(trace, false);

    assertThat(draft.citationKeys()).containsExactly("tag:1");
    assertThat(draft.expectedKeys()).containsExactly("k1", "tag:1");
  }

  @Test
  void aDeclinedRunYieldsACaseExpectingTheDeclineWithoutItsText() throws IOException {
    var trace =
        new ObjectMapper()
            .readTree(
                """
                {"run_id":"r3","question":"What is my boarding pass number?",
                 "stop_reason":"no_evidence","status":"no_evidence",
                 "synthesis":{"answer_status":"no_evidence",
                   "answer":"Nothing in your corpus mentions boarding."},
                 "pack":{"evidence":[]}}
                """);

    ResearchEvalCase draft = CaseProposal.fromTrace(trace, true);

    assertThat(draft.answerStatus()).isEqualTo("no_evidence");
    assertThat(draft.stopReason()).isEqualTo("no_evidence");
    assertThat(draft.requiredText()).isEmpty();
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

  @Test
  void aChatTurnWhoseDraftFailedVerificationExpectsTheRejectionAndNoneOfItsCitations()
      throws IOException {
    var conversation =
        new ObjectMapper()
            .readTree(
                """
                {"turns": [{"question": "What grind size do I use for espresso?",
                  "status": "failed", "answerStatus": "ok", "citations": ["invented:key"],
                  "pack": {"evidence": [{"source_key": "k1"}]}}]}
                """);

    ResearchEvalCase draft = CaseProposal.fromConversation(conversation, "chat.json").get(0);

    assertThat(draft.stopReason()).isEqualTo("verification_failed");
    assertThat(draft.answerStatus()).isNull();
    assertThat(draft.citationKeys()).isEmpty();
    assertThat(draft.expectedKeys()).containsExactly("k1");
  }

  @Test
  void aConversationArrayGivesOneDraftPerTurnWithItsEarlierQuestions() throws IOException {
    var conversation =
        new ObjectMapper()
            .readTree(
                """
                [{"question": "What grind size do I use for espresso?",
                  "cited_keys": ["k1"], "evidence_keys": ["k1", "k2", "k3", "k4"]},
                 {"question": "and for the V60?", "cited_keys": [], "evidence_keys": []}]
                """);

    List<ResearchEvalCase> drafts = CaseProposal.fromConversation(conversation, "my chat.json");

    assertThat(drafts)
        .extracting(ResearchEvalCase::id)
        .containsExactly("conv-my-chat-1", "conv-my-chat-2");
    assertThat(drafts.get(0).expectedKeys()).containsExactly("k1", "k2", "k3");
    assertThat(drafts.get(0).expectedTopKeys()).containsExactly("k1");
    assertThat(drafts.get(0).citationKeys()).containsExactly("k1");
    assertThat(drafts.get(0).priorQuestions()).isEmpty();
    assertThat(drafts.get(1).priorQuestions())
        .containsExactly("What grind size do I use for espresso?");
    assertThat(drafts.get(1).expectedTopKeys()).isEmpty();
    assertThat(drafts).noneMatch(ResearchEvalCase::isReviewed);
    for (ResearchEvalCase d : drafts) {
      assertThat(ResearchEvalCase.parse(d.toJsonLine(), "draft")).isEqualTo(d);
    }

    assertThatThrownBy(
            () ->
                CaseProposal.fromConversation(
                    new ObjectMapper().readTree("[{\"cited_keys\": []}]"), "c.json"))
        .isInstanceOf(EvalException.class)
        .hasMessage("c.json: turn 1 has no \"question\"");
    assertThatThrownBy(
            () ->
                CaseProposal.fromConversation(
                    new ObjectMapper().readTree("{\"turns\": []}"), "c.json"))
        .hasMessageStartingWith("c.json: not a saved conversation");
  }
}
