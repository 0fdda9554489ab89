package dev.brain.research.trace;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One saved run, as a listing shows it.
 *
 * @param runId the run id (the directory name)
 * @param path the trace directory
 * @param startedAt ISO-8601 start, or {@code null} when unreadable
 * @param surface who asked ({@code cli}, {@code web_chat}, ...)
 * @param question the question
 * @param stopReason why it stopped
 * @param status what was shown ({@code ok}, {@code no_evidence}, ...)
 * @param durationMs how long it took
 * @param error why {@code run.json} could not be read (the other fields are then mostly empty), or
 *     {@code null}
 */
public record TraceSummary(
    @JsonProperty("run_id") String runId,
    String path,
    @JsonProperty("started_at") String startedAt,
    String surface,
    String question,
    @JsonProperty("stop_reason") String stopReason,
    String status,
    @JsonProperty("duration_ms") long durationMs,
    String error) {}
