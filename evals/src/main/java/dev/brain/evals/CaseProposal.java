package dev.brain.evals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * A conservative draft eval case from a saved research trace ({@code run.json}): the question, its
 * chat continuity and what the run produced — answer status, stop reason, query family, judge
 * verdict, cited keys and the top evidence keys. Model answers may be wrong, so answer text becomes
 * {@code required_text} only when asked for. The draft is {@code reviewed: false} until a person
 * edits it.
 */
public final class CaseProposal {

  /** How many top evidence keys a draft expects (beyond the cited ones). */
  static final int TOP_KEYS = 3;

  /** Most answer lines a draft with answer text requires. */
  static final int MAX_ANSWER_LINES = 3;

  private CaseProposal() {}

  /**
   * The draft case of a trace.
   *
   * @param trace the trace's {@code run.json}
   * @param includeAnswer whether to require the answer's first lines (without citations)
   * @throws EvalException if the trace has no question
   */
  public static ResearchEvalCase fromTrace(JsonNode trace, boolean includeAnswer) {
    String question = text(trace.path("question"));
    String runId = text(trace.path("run_id"));
    if (question == null || question.isBlank()) {
      throw new EvalException("trace " + runId + " has no question; is it a research_trace.v1?");
    }
    JsonNode continuity = trace.path("continuity");
    JsonNode plan = trace.path("pack").path("query_plan");
    JsonNode synthesis = trace.path("synthesis");
    List<String> cited = new ArrayList<>();
    synthesis.path("citations").forEach(c -> cited.add(c.path("source_key").asText()));
    var top = new LinkedHashSet<String>();
    for (JsonNode row : trace.path("pack").path("evidence")) {
      if (top.size() >= TOP_KEYS) {
        break;
      }
      top.add(row.path("source_key").asText());
    }
    var expected = new LinkedHashSet<String>(top);
    expected.addAll(cited);
    List<String> required = includeAnswer ? answerLines(text(synthesis.path("answer"))) : List.of();
    String planner = text(plan.path("planner"));
    return new ResearchEvalCase(
        ResearchEvalCase.SCHEMA_VERSION,
        "run-" + (runId == null ? "unknown" : runId),
        question,
        false,
        "draft from trace "
            + runId
            + ": review the keys and statuses (and any answer text), then set reviewed to true",
        strings(continuity.path("prior_questions")),
        strings(continuity.path("pinned_evidence_keys")),
        plan.path("include_related").asBoolean(false) ? Boolean.TRUE : null,
        List.copyOf(expected),
        List.of(),
        List.copyOf(top).subList(0, Math.min(1, top.size())),
        null,
        null,
        required,
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        text(plan.path("query_family")),
        "model_assisted".equals(planner) ? planner : null,
        text(synthesis.path("answer_status")),
        text(trace.path("stop_reason")),
        cited,
        text(trace.path("judge").path("verdict")),
        text(trace.path("judge").path("retry_action")),
        null);
  }

  /** The answer's first non-empty lines, without list markers and bracketed citations. */
  static List<String> answerLines(String answer) {
    if (answer == null) {
      return List.of();
    }
    var out = new ArrayList<String>();
    for (String line : answer.split("\n")) {
      String s =
          line.replaceAll("\\[[^\\]]+\\]", "")
              .replaceAll("^\\s*[-*]\\s*", "")
              .replaceAll("\\s*\\([a-z_]+\\)\\s*$", "")
              .strip();
      if (s.isEmpty() || s.endsWith(":")) {
        continue;
      }
      out.add(s);
      if (out.size() == MAX_ANSWER_LINES) {
        break;
      }
    }
    return out;
  }

  private static List<String> strings(JsonNode array) {
    var out = new ArrayList<String>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private static String text(JsonNode n) {
    return n.isTextual() ? n.asText() : null;
  }
}
