package dev.brain.evals;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.research.plan.ChatContinuity;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.run.RunSettings;
import dev.brain.research.synthesis.Citation;
import dev.brain.retrieval.EvidenceRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a saved run's evidence differs from a new run of the same question with the same options: the
 * minimal trace diff for tuning the harness, as {@code brain trace diff} prints it and {@code POST
 * /api/research/trace-diff} answers it. Keys are compared in rank order: {@code added} and {@code
 * removed} keys, and {@code reordered} keys — those whose position among the keys both runs share
 * changed, so one added row at the top does not make every other row look moved. The answer text,
 * the cited keys and the stop reasons are compared too.
 *
 * @param runId the saved run
 * @param question its question
 * @param before the saved run's evidence keys, in rank order
 * @param after the new run's evidence keys, in rank order
 * @param added keys only the new run has
 * @param removed keys only the saved run has
 * @param reordered shared keys whose relative order changed, with both ranks
 * @param stopReasonBefore the saved run's stop reason
 * @param stopReasonAfter the new run's stop reason
 * @param statusBefore the saved run's status
 * @param statusAfter the new run's status
 * @param answer how the answer and its citations changed
 */
@JsonPropertyOrder({
  "run_id",
  "question",
  "before",
  "after",
  "added",
  "removed",
  "reordered",
  "unchanged",
  "stop_reason_before",
  "stop_reason_after",
  "status_before",
  "status_after",
  "answer"
})
public record TraceDiff(
    @JsonProperty("run_id") String runId,
    String question,
    List<String> before,
    List<String> after,
    List<String> added,
    List<String> removed,
    List<Move> reordered,
    @JsonProperty("stop_reason_before") String stopReasonBefore,
    @JsonProperty("stop_reason_after") String stopReasonAfter,
    @JsonProperty("status_before") String statusBefore,
    @JsonProperty("status_after") String statusAfter,
    AnswerDiff answer) {

  public TraceDiff {
    answer = answer == null ? AnswerDiff.of(null, null, List.of(), List.of()) : answer;
    before = List.copyOf(before);
    after = List.copyOf(after);
    added = List.copyOf(added);
    removed = List.copyOf(removed);
    reordered = List.copyOf(reordered);
  }

  /**
   * A key at another place.
   *
   * @param sourceKey the key
   * @param beforeRank its 1-based rank in the saved run
   * @param afterRank its 1-based rank in the new run
   */
  public record Move(
      @JsonProperty("source_key") String sourceKey,
      @JsonProperty("before_rank") int beforeRank,
      @JsonProperty("after_rank") int afterRank) {}

  /**
   * How the answer changed.
   *
   * @param before the saved run's answer, or {@code null}
   * @param after the new run's answer, or {@code null}
   * @param changed whether the texts differ
   * @param citationsBefore the keys the saved answer cites, in order
   * @param citationsAfter the keys the new answer cites, in order
   * @param citationsAdded keys only the new answer cites
   * @param citationsRemoved keys only the saved answer cites
   */
  @JsonPropertyOrder({
    "changed",
    "before",
    "after",
    "citations_before",
    "citations_after",
    "citations_added",
    "citations_removed"
  })
  public record AnswerDiff(
      String before,
      String after,
      boolean changed,
      @JsonProperty("citations_before") List<String> citationsBefore,
      @JsonProperty("citations_after") List<String> citationsAfter,
      @JsonProperty("citations_added") List<String> citationsAdded,
      @JsonProperty("citations_removed") List<String> citationsRemoved) {

    public AnswerDiff {
      citationsBefore = List.copyOf(citationsBefore);
      citationsAfter = List.copyOf(citationsAfter);
      citationsAdded = List.copyOf(citationsAdded);
      citationsRemoved = List.copyOf(citationsRemoved);
    }

    /** The diff of two answers and their cited keys. */
    static AnswerDiff of(String before, String after, List<String> cited, List<String> citedNow) {
      return new AnswerDiff(
          before,
          after,
          !Objects.equals(before, after),
          cited,
          citedNow,
          citedNow.stream().filter(k -> !cited.contains(k)).toList(),
          cited.stream().filter(k -> !citedNow.contains(k)).toList());
    }

    /** Whether the cited keys changed (added, removed or in another order). */
    @JsonProperty("citations_changed")
    public boolean citationsChanged() {
      return !citationsBefore.equals(citationsAfter);
    }
  }

  /** Whether both runs found the same keys in the same order. */
  @JsonProperty("unchanged")
  public boolean unchanged() {
    return added.isEmpty() && removed.isEmpty() && reordered.isEmpty();
  }

  /**
   * The request that runs a saved trace's question again: its question, options, budgets and chat
   * continuity, untraced, without models (pass them with {@link RunRequest#withModel} and {@link
   * RunRequest#withPlanner}; the trace names them in {@link RunSettings#plannerModel()} and {@link
   * RunSettings#synthesisModel()}).
   */
  public static RunRequest rerun(JsonNode trace) {
    RunSettings settings = RunSettings.fromJson(trace.path("settings"));
    JsonNode c = trace.path("continuity");
    var continuity =
        new ChatContinuity(
            strings(c.path("prior_questions")),
            strings(c.path("pinned_evidence_keys")),
            strings(c.path("prior_evidence_keys")));
    return RunRequest.of(trace.path("question").asText())
        .withOptions(settings.researchOptions())
        .withSynthesis(settings.synthesisOptions())
        .withBudgets(settings.budgets())
        .withContinuity(continuity)
        .withSurface("trace_diff")
        .withTrace(false);
  }

  /** The diff of a saved trace ({@code run.json}) and a new run. */
  public static TraceDiff of(JsonNode trace, RunResult now) {
    var before = new ArrayList<String>();
    trace.path("pack").path("evidence").forEach(r -> before.add(r.path("source_key").asText()));
    List<String> after =
        now.pack() == null
            ? List.of()
            : now.pack().evidence().stream().map(EvidenceRow::sourceKey).toList();
    var cited = new ArrayList<String>();
    trace
        .path("synthesis")
        .path("citations")
        .forEach(c -> cited.add(c.path("source_key").asText()));
    List<String> citedNow =
        now.synthesis() == null
            ? List.of()
            : now.synthesis().citations().stream().map(Citation::sourceKey).toList();
    var answer =
        AnswerDiff.of(
            text(trace.path("synthesis").path("answer")),
            now.synthesis() == null ? null : now.synthesis().answer(),
            cited,
            citedNow);
    return compare(
            trace.path("run_id").asText(),
            trace.path("question").asText(),
            before,
            after,
            text(trace.path("stop_reason")),
            now.stopReason() == null ? null : now.stopReason().wireName(),
            text(trace.path("status")),
            now.status().wireName())
        .withAnswer(answer);
  }

  private TraceDiff withAnswer(AnswerDiff value) {
    return new TraceDiff(
        runId,
        question,
        before,
        after,
        added,
        removed,
        reordered,
        stopReasonBefore,
        stopReasonAfter,
        statusBefore,
        statusAfter,
        value);
  }

  /** The diff of two rankings of keys. */
  static TraceDiff compare(
      String runId,
      String question,
      List<String> before,
      List<String> after,
      String stopBefore,
      String stopAfter,
      String statusBefore,
      String statusAfter) {
    List<String> added = after.stream().filter(k -> !before.contains(k)).toList();
    List<String> removed = before.stream().filter(k -> !after.contains(k)).toList();
    List<String> sharedBefore = before.stream().filter(after::contains).toList();
    List<String> sharedAfter = after.stream().filter(before::contains).toList();
    var moved = new ArrayList<Move>();
    for (int i = 0; i < sharedBefore.size(); i++) {
      String key = sharedBefore.get(i);
      if (sharedAfter.indexOf(key) != i) {
        moved.add(new Move(key, before.indexOf(key) + 1, after.indexOf(key) + 1));
      }
    }
    return new TraceDiff(
        runId,
        question,
        before,
        after,
        added,
        removed,
        moved,
        stopBefore,
        stopAfter,
        statusBefore,
        statusAfter,
        null);
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
