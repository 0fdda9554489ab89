package dev.brain.research.trace;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.brain.research.plan.ChatContinuity;
import dev.brain.research.run.RunMetrics;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.run.RunSettings;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code run.json} of a trace directory ({@code research_trace.v1}): everything needed to
 * explain a run from the file alone — the run's result itself (its fields inline), and what only
 * the trace knows: who asked and when, the chat continuity, the settings, the sidecar files (the
 * synthesis input and the planner's input and output) and the metrics including their size. The
 * events end with the trace stage's start (the write itself cannot be in the file it writes).
 *
 * @param schemaVersion {@value #SCHEMA_VERSION}
 * @param surface who asked: {@code cli}, {@code web_chat}, {@code library}, ...
 * @param startedAt when the run started, ISO-8601
 * @param completedAt when the trace was made, ISO-8601
 * @param continuity the chat continuity of the run
 * @param settings the budgets and options the run had
 * @param artifacts the sidecar files by role
 * @param run the run's result, written inline but for its own schema version, trace path and
 *     metrics
 * @param metrics the run's metrics with the size of the trace's files
 */
@JsonPropertyOrder({
  "schema_version",
  "surface",
  "started_at",
  "completed_at",
  "continuity",
  "settings",
  "artifacts",
  "run",
  "metrics"
})
public record ResearchTrace(
    @JsonProperty("schema_version") String schemaVersion,
    String surface,
    @JsonProperty("started_at") String startedAt,
    @JsonProperty("completed_at") String completedAt,
    Continuity continuity,
    RunSettings settings,
    Map<String, String> artifacts,
    @JsonUnwrapped @JsonIgnoreProperties({"schema_version", "trace_path", "trace_error", "metrics"})
        RunResult run,
    RunMetrics metrics) {

  /** The schema version of this shape. */
  public static final String SCHEMA_VERSION = "research_trace.v1";

  /**
   * The chat continuity of a run: the user's words and record keys only, never a model answer.
   *
   * @param originalQuestion the question as the surface sent it
   * @param retrievalQuestion what was researched
   * @param priorQuestions earlier user questions
   * @param pinnedEvidenceKeys keys the user pinned
   * @param priorEvidenceKeys keys of earlier turns' evidence (recorded, not merged)
   */
  public record Continuity(
      @JsonProperty("original_question") String originalQuestion,
      @JsonProperty("retrieval_question") String retrievalQuestion,
      @JsonProperty("prior_questions") List<String> priorQuestions,
      @JsonProperty("pinned_evidence_keys") List<String> pinnedEvidenceKeys,
      @JsonProperty("prior_evidence_keys") List<String> priorEvidenceKeys) {}

  /** The trace of a run, from its result so far and the request it ran. */
  public static ResearchTrace of(
      RunResult run, RunRequest request, Instant startedAt, Map<String, String> sidecars) {
    var artifacts = new LinkedHashMap<String, String>();
    for (String name : sidecars.keySet()) {
      artifacts.put(name.replaceAll("\\.(md|json|txt)$", "").replace('-', '_'), name);
    }
    ChatContinuity c = request.continuity();
    return new ResearchTrace(
        SCHEMA_VERSION,
        request.surface(),
        startedAt.toString(),
        Instant.now().toString(),
        new Continuity(
            run.question(),
            run.retrievalQuestion(),
            c.priorQuestions(),
            c.pinnedEvidenceKeys(),
            c.priorEvidenceKeys()),
        RunSettings.of(request),
        artifacts,
        run,
        run.metrics());
  }

  /** This trace with other metrics (the artifact size is known only once the files exist). */
  ResearchTrace withMetrics(RunMetrics value) {
    return new ResearchTrace(
        schemaVersion,
        surface,
        startedAt,
        completedAt,
        continuity,
        settings,
        artifacts,
        run,
        value);
  }
}
