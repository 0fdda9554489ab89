package dev.brain.research.trace;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.brain.research.pack.MergeReport;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.pack.RowInspection;
import dev.brain.research.plan.ChatContinuity;
import dev.brain.research.run.JudgeVerdict;
import dev.brain.research.run.ProgressEvent;
import dev.brain.research.run.RunFailure;
import dev.brain.research.run.RunMetrics;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.run.RunSettings;
import dev.brain.research.run.StopReason;
import dev.brain.research.synthesis.PreparedSynthesis;
import dev.brain.research.synthesis.ResearchResult.Outcome;
import dev.brain.research.synthesis.SynthesisResult;
import dev.brain.research.synthesis.Verification;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code run.json} of a trace directory ({@code research_trace.v1}): everything needed to
 * explain a run from the file alone. The synthesis input and the planner's input and output are
 * sidecar files named in {@code artifacts}; the events end with the trace stage's start (the write
 * itself cannot be in the file it writes).
 */
@JsonPropertyOrder({
  "schema_version",
  "run_id",
  "surface",
  "started_at",
  "completed_at",
  "question",
  "retrieval_question",
  "continuity",
  "settings",
  "stop_reason",
  "status",
  "failure",
  "judge",
  "final_judge",
  "merge",
  "pinned",
  "inspections",
  "timings",
  "metrics",
  "artifacts",
  "events",
  "synthesis",
  "verification",
  "prepared_synthesis",
  "pack"
})
public record ResearchTrace(
    @JsonProperty("schema_version") String schemaVersion,
    @JsonProperty("run_id") String runId,
    String surface,
    @JsonProperty("started_at") String startedAt,
    @JsonProperty("completed_at") String completedAt,
    String question,
    @JsonProperty("retrieval_question") String retrievalQuestion,
    Continuity continuity,
    RunSettings settings,
    @JsonProperty("stop_reason") StopReason stopReason,
    Outcome status,
    RunFailure failure,
    JudgeVerdict judge,
    @JsonProperty("final_judge") JudgeVerdict finalJudge,
    MergeReport merge,
    MergeReport pinned,
    List<RowInspection> inspections,
    Map<String, Long> timings,
    RunMetrics metrics,
    Map<String, String> artifacts,
    List<ProgressEvent> events,
    SynthesisResult synthesis,
    Verification verification,
    @JsonProperty("prepared_synthesis") PreparedSynthesis preparedSynthesis,
    ResearchPack pack) {

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

  /**
   * The trace of a run, from its result so far and the request it ran: every field of the result,
   * plus who asked, when, the chat continuity, the settings and the sidecar files.
   */
  public static ResearchTrace of(
      RunResult run, RunRequest request, Instant startedAt, Map<String, String> sidecars) {
    var artifacts = new LinkedHashMap<String, String>();
    for (String name : sidecars.keySet()) {
      artifacts.put(name.replaceAll("\\.(md|json|txt)$", "").replace('-', '_'), name);
    }
    ChatContinuity c = request.continuity();
    return new ResearchTrace(
        SCHEMA_VERSION,
        run.runId(),
        request.surface(),
        startedAt.toString(),
        Instant.now().toString(),
        run.question(),
        run.retrievalQuestion(),
        new Continuity(
            run.question(),
            run.retrievalQuestion(),
            c.priorQuestions(),
            c.pinnedEvidenceKeys(),
            c.priorEvidenceKeys()),
        RunSettings.of(request),
        run.stopReason(),
        run.status(),
        run.failure(),
        run.judge(),
        run.finalJudge(),
        run.merge(),
        run.pinned(),
        run.inspections(),
        run.timings(),
        run.metrics(),
        artifacts,
        run.events(),
        run.synthesis(),
        run.verification(),
        run.preparedSynthesis(),
        run.pack());
  }

  /** This trace with other metrics (the artifact size is known only once the files exist). */
  ResearchTrace withMetrics(RunMetrics value) {
    return new ResearchTrace(
        schemaVersion,
        runId,
        surface,
        startedAt,
        completedAt,
        question,
        retrievalQuestion,
        continuity,
        settings,
        stopReason,
        status,
        failure,
        judge,
        finalJudge,
        merge,
        pinned,
        inspections,
        timings,
        value,
        artifacts,
        events,
        synthesis,
        verification,
        preparedSynthesis,
        pack);
  }
}
