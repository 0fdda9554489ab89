package dev.brain.research.run;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * Compact numbers of one run, so cost and latency regressions show without reading the events.
 *
 * @param durationMs the whole run
 * @param steps stages started (counted against {@link RunBudgets#maxSteps()})
 * @param variantCount query variants of the first retrieval pass
 * @param candidatesBeforeDedupe rows the variants' searches returned together (a record found by
 *     several variants counts once per variant)
 * @param candidatesAfterDedupe distinct records among them, before re-scoring dropped any
 * @param evidenceRows rows of the final pack
 * @param inspectedRows top rows inspected
 * @param modelCalls chat-model calls made (planner and synthesis)
 * @param plannerChars characters sent to the model planner (system prompt and input)
 * @param synthesisChars characters sent to the synthesis model (0 for the extractive synthesizer)
 * @param synthesisInputChars characters of the prepared synthesis input
 * @param tokensStreamed answer tokens a chat model streamed
 * @param plannerFallback whether a model planner was asked but its plan was not used
 * @param artifactBytes bytes of the trace directory's files (0 without a trace)
 */
@JsonPropertyOrder({
  "duration_ms",
  "steps",
  "variant_count",
  "candidates_before_dedupe",
  "candidates_after_dedupe",
  "evidence_rows",
  "inspected_rows",
  "model_calls",
  "planner_chars",
  "synthesis_chars",
  "synthesis_input_chars",
  "tokens_streamed",
  "planner_fallback",
  "artifact_bytes"
})
public record RunMetrics(
    @JsonProperty("duration_ms") long durationMs,
    int steps,
    @JsonProperty("variant_count") int variantCount,
    @JsonProperty("candidates_before_dedupe") int candidatesBeforeDedupe,
    @JsonProperty("candidates_after_dedupe") int candidatesAfterDedupe,
    @JsonProperty("evidence_rows") int evidenceRows,
    @JsonProperty("inspected_rows") int inspectedRows,
    @JsonProperty("model_calls") int modelCalls,
    @JsonProperty("planner_chars") long plannerChars,
    @JsonProperty("synthesis_chars") long synthesisChars,
    @JsonProperty("synthesis_input_chars") long synthesisInputChars,
    @JsonProperty("tokens_streamed") int tokensStreamed,
    @JsonProperty("planner_fallback") boolean plannerFallback,
    @JsonProperty("artifact_bytes") long artifactBytes) {

  /** These metrics with the trace's size. */
  public RunMetrics withArtifactBytes(long bytes) {
    return new RunMetrics(
        durationMs,
        steps,
        variantCount,
        candidatesBeforeDedupe,
        candidatesAfterDedupe,
        evidenceRows,
        inspectedRows,
        modelCalls,
        plannerChars,
        synthesisChars,
        synthesisInputChars,
        tokensStreamed,
        plannerFallback,
        bytes);
  }
}
