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

  /**
   * Whether a surface shows this run's answer text to the user as it is: a {@link #normalAnswer} or
   * the plain statement that nothing in the corpus answers ({@code no_evidence}).
   */
  @JsonIgnore
  public boolean shownAnswer() {
    return normalAnswer() || status == Outcome.NO_EVIDENCE;
  }

  /**
   * A builder for a run's result with its id, question and status; every other field is {@code
   * null} (lists and timings empty, the retrieval question the question) until set.
   */
  public static Builder builder(String runId, String question, Outcome status) {
    return new Builder(runId, question, status);
  }

  /** This result with {@code pack} as its research pack. */
  public RunResult withPack(ResearchPack pack) {
    return new Builder(this).pack(pack).build();
  }

  /** Builds a {@link RunResult} by name instead of by the position of its 21 components. */
  public static final class Builder {
    private final String schemaVersion;
    private final String runId;
    private final String question;
    private String retrievalQuestion;
    private StopReason stopReason;
    private final Outcome status;
    private SynthesisResult synthesis;
    private Verification verification;
    private RunFailure failure;
    private JudgeVerdict judge;
    private JudgeVerdict finalJudge;
    private MergeReport merge;
    private MergeReport pinned;
    private List<RowInspection> inspections = List.of();
    private Map<String, Long> timings = Map.of();
    private RunMetrics metrics;
    private List<ProgressEvent> events = List.of();
    private String tracePath;
    private String traceError;
    private ResearchPack pack;
    private PreparedSynthesis preparedSynthesis;

    private Builder(String runId, String question, Outcome status) {
      this.schemaVersion = SCHEMA_VERSION;
      this.runId = runId;
      this.question = question;
      this.retrievalQuestion = question;
      this.status = status;
    }

    private Builder(RunResult r) {
      this.schemaVersion = r.schemaVersion();
      this.runId = r.runId();
      this.question = r.question();
      this.status = r.status();
      this.retrievalQuestion = r.retrievalQuestion();
      this.stopReason = r.stopReason();
      this.synthesis = r.synthesis();
      this.verification = r.verification();
      this.failure = r.failure();
      this.judge = r.judge();
      this.finalJudge = r.finalJudge();
      this.merge = r.merge();
      this.pinned = r.pinned();
      this.inspections = r.inspections();
      this.timings = r.timings();
      this.metrics = r.metrics();
      this.events = r.events();
      this.tracePath = r.tracePath();
      this.traceError = r.traceError();
      this.pack = r.pack();
      this.preparedSynthesis = r.preparedSynthesis();
    }

    /** Sets the question as searched (default: the question). */
    public Builder retrievalQuestion(String retrievalQuestion) {
      this.retrievalQuestion = retrievalQuestion;
      return this;
    }

    /** Sets why the run stopped. */
    public Builder stopReason(StopReason stopReason) {
      this.stopReason = stopReason;
      return this;
    }

    /** Sets the answer. */
    public Builder synthesis(SynthesisResult synthesis) {
      this.synthesis = synthesis;
      return this;
    }

    /** Sets its verification. */
    public Builder verification(Verification verification) {
      this.verification = verification;
      return this;
    }

    /** Sets what failed, when something did. */
    public Builder failure(RunFailure failure) {
      this.failure = failure;
      return this;
    }

    /** Sets the first verdict. */
    public Builder judge(JudgeVerdict judge) {
      this.judge = judge;
      return this;
    }

    /** Sets the verdict after the retry or expansion. */
    public Builder finalJudge(JudgeVerdict finalJudge) {
      this.finalJudge = finalJudge;
      return this;
    }

    /** Sets what the extra pass merged. */
    public Builder merge(MergeReport merge) {
      this.merge = merge;
      return this;
    }

    /** Sets the pinned records added. */
    public Builder pinned(MergeReport pinned) {
      this.pinned = pinned;
      return this;
    }

    /** Sets the rows inspected (default: none). */
    public Builder inspections(List<RowInspection> inspections) {
      this.inspections = inspections;
      return this;
    }

    /** Sets milliseconds per stage (default: none). */
    public Builder timings(Map<String, Long> timings) {
      this.timings = timings;
      return this;
    }

    /** Sets the run's metrics. */
    public Builder metrics(RunMetrics metrics) {
      this.metrics = metrics;
      return this;
    }

    /** Sets the progress events (default: none). */
    public Builder events(List<ProgressEvent> events) {
      this.events = events;
      return this;
    }

    /** Sets where the trace was saved. */
    public Builder tracePath(String tracePath) {
      this.tracePath = tracePath;
      return this;
    }

    /** Sets why the trace could not be saved. */
    public Builder traceError(String traceError) {
      this.traceError = traceError;
      return this;
    }

    /** Sets the research pack. */
    public Builder pack(ResearchPack pack) {
      this.pack = pack;
      return this;
    }

    /** Sets the synthesis input. */
    public Builder preparedSynthesis(PreparedSynthesis preparedSynthesis) {
      this.preparedSynthesis = preparedSynthesis;
      return this;
    }

    /** The result. */
    public RunResult build() {
      return new RunResult(
          schemaVersion,
          runId,
          question,
          retrievalQuestion,
          stopReason,
          status,
          synthesis,
          verification,
          failure,
          judge,
          finalJudge,
          merge,
          pinned,
          inspections,
          timings,
          metrics,
          events,
          tracePath,
          traceError,
          pack,
          preparedSynthesis);
    }
  }
}
