package dev.brain.evals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.research.trace.Redactor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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

  /**
   * Where surfaces that write for the user (the web Harness Lab) keep case files: {@code
   * <data>/evals/cases}, never the repository or the user's notes.
   */
  public static final String CASES_DIRECTORY = "evals/cases";

  private CaseProposal() {}

  /** A draft as its case-file line, without control characters a terminal would act on. */
  public static String line(ResearchEvalCase draft) {
    return Redactor.withoutControlCharacters(draft.toJsonLine());
  }

  /**
   * Appends a draft as one line to a case file (created with its folder when missing), as {@code
   * brain eval propose --output} and the Harness Lab's promote do.
   *
   * @throws EvalException if the file already holds a case with the draft's id (a case file with
   *     two cases of one id would not load)
   * @throws IOException if the file cannot be read or written
   */
  public static void append(ResearchEvalCase draft, Path file) throws IOException {
    if (Files.exists(file)) {
      var mapper = new ObjectMapper();
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        String s = line.strip();
        if (s.isEmpty() || s.startsWith("//")) {
          continue;
        }
        JsonNode existing;
        try {
          existing = mapper.readTree(s);
        } catch (IOException malformed) {
          continue; // `brain eval research` reports it with its line; not this draft's concern
        }
        if (draft.id().equals(existing.path("id").asText(null))) {
          throw new EvalException(
              file + " already holds a case with id '" + draft.id() + "'; edit that one instead");
        }
      }
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(
        file,
        line(draft) + "\n",
        StandardCharsets.UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

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
    var evidence = new LinkedHashSet<String>();
    trace.path("pack").path("evidence").forEach(r -> evidence.add(r.path("source_key").asText()));
    evidence.remove("");
    List<String> top = evidence.stream().limit(TOP_KEYS).toList();
    var quotable = new LinkedHashSet<String>(evidence);
    trace
        .path("pack")
        .path("exact_tag_evidence")
        .forEach(r -> quotable.add(r.path("source_key").asText()));
    // A rejected draft (its verification failed) or a decline is no answer to learn from: the case
    // expects that outcome, never the rejected text or the keys it cited, which may be invented.
    boolean rejected = VERIFICATION_FAILED.equals(text(trace.path("status")));
    String answerStatus = rejected ? null : text(synthesis.path("answer_status"));
    boolean answered = !rejected && !"no_evidence".equals(answerStatus);
    List<String> cited = new ArrayList<>();
    if (answered) {
      // Only keys that really are evidence of the run: a citation of anything else is not a key
      // the case may expect.
      synthesis.path("citations").forEach(c -> cited.add(c.path("source_key").asText()));
      cited.retainAll(quotable);
    }
    var expected = new LinkedHashSet<String>(top);
    expected.addAll(cited);
    List<String> required =
        includeAnswer && answered ? answerLines(text(synthesis.path("answer"))) : List.of();
    String stopReason = rejected ? VERIFICATION_FAILED : text(trace.path("stop_reason"));
    String planner = text(plan.path("planner"));
    boolean assisted = "model_assisted".equals(planner);
    return new ResearchEvalCase.Draft(
            "run-" + (runId == null ? "unknown" : runId),
            question,
            "draft from trace "
                + runId
                + ": review the keys and statuses (and any answer text), then set reviewed to true")
        .context(
            strings(continuity.path("prior_questions")),
            strings(continuity.path("pinned_evidence_keys")),
            plan.path("include_related").asBoolean(false) ? Boolean.TRUE : null)
        .evidence(List.copyOf(expected), top.subList(0, Math.min(1, top.size())))
        .requiredText(required)
        .plan(
            text(plan.path("query_family")),
            assisted ? planner : null,
            assisted ? text(plan.path("planner_model")) : null)
        .outcome(answerStatus, stopReason, cited)
        .judge(
            text(trace.path("judge").path("verdict")),
            text(trace.path("judge").path("retry_action")))
        .build();
  }

  /** The outcome of a run whose draft answer failed verification (a rejected draft). */
  private static final String VERIFICATION_FAILED = "verification_failed";

  /** Turn statuses of a Chat turn that produced no answer to assert on. */
  private static final java.util.Set<String> UNFINISHED =
      java.util.Set.of("running", "error", "stopped", "interrupted");

  /**
   * Draft cases from a saved Chat conversation, one per answered turn: the turn's question with the
   * earlier turns' questions as {@code prior_questions} (a follow-up keeps its context), its first
   * evidence keys and the first of them as the top key, its cited keys and its answer status. Never
   * the answer text: a saved answer may be wrong. Turns that did not finish (error, stopped,
   * interrupted) give no case but still count as earlier questions.
   *
   * <p>Reads the Chat's saved session ({@code {"turns": [{question, citations, pack: {evidence:
   * [{source_key}]}, answerStatus, trace}]}}), or the {@code conversation} of {@code POST
   * /api/research/run} ({@code [{question, cited_keys, evidence_keys}]}, bare or under {@code
   * "conversation"}).
   *
   * @param conversation the saved conversation
   * @param name the file's name, for case ids and errors
   * @throws EvalException if it holds no turns or a turn has no question
   */
  public static List<ResearchEvalCase> fromConversation(JsonNode conversation, String name) {
    JsonNode turns = turnsOf(conversation, name);
    String stem = idStem(name);
    var out = new ArrayList<ResearchEvalCase>();
    var prior = new ArrayList<String>();
    int n = 0;
    for (JsonNode turn : turns) {
      n++;
      String question = text(turn.path("question"));
      if (question == null || question.isBlank()) {
        throw new EvalException(name + ": turn " + n + " has no \"question\"");
      }
      String status = text(turn.path("status"));
      if (status == null || !UNFINISHED.contains(status)) {
        String id = "conv-" + (stem.isEmpty() ? "chat" : stem) + "-" + n;
        String run = text(turn.path("trace"));
        String notes =
            "draft from conversation "
                + name
                + ", turn "
                + n
                + (run == null ? "" : " (run " + run + ")")
                + ": review the keys and the status, then set reviewed to true; the answer"
                + " was not copied (it may be wrong)";
        var earlier = List.copyOf(prior.subList(Math.max(0, prior.size() - 8), prior.size()));
        out.add(turnDraft(id, question, notes, earlier, turn));
      }
      prior.add(question);
    }
    if (out.isEmpty()) {
      throw new EvalException(name + ": no turn of the conversation finished with an answer");
    }
    return out;
  }

  /** The turns of a saved session or of a {@code conversation}, bare or under its name. */
  private static JsonNode turnsOf(JsonNode conversation, String name) {
    JsonNode turns =
        conversation.isArray()
            ? conversation
            : conversation.has("turns")
                ? conversation.get("turns")
                : conversation.path("conversation");
    if (!turns.isArray() || turns.isEmpty()) {
      throw new EvalException(
          name
              + ": not a saved conversation: expected the Chat's saved session (an object with"
              + " \"turns\") or a \"conversation\" array of {question, cited_keys, evidence_keys}");
    }
    return turns;
  }

  /** A file name as the middle of case ids: without its extension, other characters as dashes. */
  private static String idStem(String name) {
    return name.replaceFirst("\\.[A-Za-z0-9]+$", "")
        .replaceAll("[^A-Za-z0-9]+", "-")
        .replaceAll("^-|-$", "");
  }

  /**
   * The draft of one finished turn: its first evidence keys, the first of them as the top key, its
   * cited keys and its answer status (either spelling of the field).
   */
  private static ResearchEvalCase turnDraft(
      String id, String question, String notes, List<String> prior, JsonNode turn) {
    // A turn whose draft failed verification ("failed" in the Chat) expects that outcome, never the
    // keys its rejected draft cited, nor the draft's own status.
    String status = text(turn.path("status"));
    boolean rejected = "failed".equals(status) || VERIFICATION_FAILED.equals(status);
    List<String> cited =
        rejected
            ? List.of()
            : strings(turn.has("cited_keys") ? turn.get("cited_keys") : turn.path("citations"));
    var evidence = new LinkedHashSet<String>();
    if (turn.has("evidence_keys")) {
      evidence.addAll(strings(turn.get("evidence_keys")));
    } else {
      turn.path("pack").path("evidence").forEach(r -> evidence.add(r.path("source_key").asText()));
    }
    evidence.remove("");
    List<String> top = evidence.stream().limit(TOP_KEYS).toList();
    String answerStatus = text(turn.path("answer_status"));
    if (answerStatus == null) {
      answerStatus = text(turn.path("answerStatus"));
    }
    if (rejected) {
      answerStatus = null;
    }
    return new ResearchEvalCase.Draft(id, question, notes)
        .context(prior, List.of(), null)
        .evidence(top, top.isEmpty() ? List.of() : List.of(top.get(0)))
        .outcome(answerStatus, rejected ? VERIFICATION_FAILED : null, cited)
        .build();
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
