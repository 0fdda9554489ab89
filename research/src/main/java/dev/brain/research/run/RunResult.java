package dev.brain.research.run;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.brain.research.pack.MergeReport;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.pack.RowInspection;
import dev.brain.research.synthesis.PreparedSynthesis;
import dev.brain.research.synthesis.ResearchResult.Outcome;
import dev.brain.research.synthesis.SynthesisResult;
import dev.brain.research.synthesis.Verification;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The outcome of one research run ({@code research_run.v1}): why it stopped, the answer and its
 * verification, the judge's verdicts, what the extra pass merged, the events, timings and metrics,
 * and where the trace was saved. Fields a run did not reach are {@code null}.
 *
 * @param schemaVersion always {@value #SCHEMA_VERSION}
 * @param runId the run's id (also its trace directory's name)
 * @param question the user's current question
 * @param retrievalQuestion what was researched: the current question, with the earlier questions of
 *     a chat follow-up
 * @param stopReason why the run stopped ({@code null} only in the trace of a run that an exception
 *     broke; such a run returns no result)
 * @param status what a surface shows: the answer status, {@code verification_failed} for an answer
 *     that failed a hard gate, {@code error} when the run stopped before an answer
 * @param synthesis the answer (also a failed or cut-short one), or {@code null} before synthesis
 * @param verification the citation checks, or {@code null} before verification
 * @param failure what cut the run short, or {@code null}
 * @param judge the judge's verdict on the first pass, or {@code null}
 * @param finalJudge the verdict after the retry or expansion (the first verdict when there was
 *     none), or {@code null}
 * @param merge what the focused retry or related expansion merged, or {@code null}
 * @param pinned how pinned evidence was merged, or {@code null} without pinned keys
 * @param inspections what inspecting the top rows found
 * @param timings milliseconds per stage, by stage wire name, in run order
 * @param metrics compact numbers
 * @param events every progress event, in order
 * @param tracePath the trace directory (absolute), or {@code null} when none was written
 * @param traceError why the trace could not be written, or {@code null}
 * @param pack the final research pack, or {@code null} before retrieval
 * @param preparedSynthesis the synthesis input's metadata, or {@code null} before preparation
 */
@JsonPropertyOrder({
  "schema_version",
  "run_id",
  "question",
  "retrieval_question",
  "stop_reason",
  "status",
  "synthesis",
  "verification",
  "failure",
  "judge",
  "final_judge",
  "merge",
  "pinned",
  "inspections",
  "timings",
  "metrics",
  "events",
  "trace_path",
  "trace_error",
  "prepared_synthesis",
  "pack"
})
public record RunResult(
    @JsonProperty("schema_version") String schemaVersion,
    @JsonProperty("run_id") String runId,
    String question,
    @JsonProperty("retrieval_question") String retrievalQuestion,
    @JsonProperty("stop_reason") StopReason stopReason,
    Outcome status,
    SynthesisResult synthesis,
    Verification verification,
    RunFailure failure,
    JudgeVerdict judge,
    @JsonProperty("final_judge") JudgeVerdict finalJudge,
    MergeReport merge,
    MergeReport pinned,
    List<RowInspection> inspections,
    Map<String, Long> timings,
    RunMetrics metrics,
    List<ProgressEvent> events,
    @JsonProperty("trace_path") String tracePath,
    @JsonProperty("trace_error") String traceError,
    ResearchPack pack,
    @JsonProperty("prepared_synthesis") PreparedSynthesis preparedSynthesis) {

  /** The schema version of this shape. */
  public static final String SCHEMA_VERSION = "research_run.v1";

  public RunResult {
    Objects.requireNonNull(status, "status");
    inspections = List.copyOf(inspections);
    timings = Collections.unmodifiableMap(new LinkedHashMap<>(timings));
    events = List.copyOf(events);
  }

  /**
   * Whether the answer may be shown as an answer: a verified {@code ok}, {@code ok_truncated} or
   * {@code partial} synthesis of a run that was not cut short ({@code partial} is shown with its
   * status, never as a full answer).
   */
  @JsonIgnore
  public boolean normalAnswer() {
    return (status == Outcome.OK || status == Outcome.OK_TRUNCATED || status == Outcome.PARTIAL)
        && stopReason != StopReason.TIMEOUT_EXCEEDED
        && stopReason != StopReason.CANCELLED
        && stopReason != StopReason.MAX_STEPS_REACHED;
  }
}
