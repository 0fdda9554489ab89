package dev.brain.research.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.brain.retrieval.WireName;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One step of a research run as it happens: what the CLI prints as a timeline line, what the web
 * server streams as an SSE {@code progress} event, and what the trace keeps in order.
 *
 * @param seq 1-based position of the event in its run
 * @param stage the stage it belongs to
 * @param status {@code started}, {@code completed}, {@code skipped} or {@code failed}
 * @param message one short human-readable sentence
 * @param data compact structured details (counts, keys, verdicts); never evidence text
 * @param elapsedMs milliseconds since the run started
 * @param at ISO-8601 UTC instant of the event
 */
@JsonPropertyOrder({"seq", "stage", "status", "message", "data", "elapsed_ms", "at"})
public record ProgressEvent(
    int seq,
    RunStage stage,
    Status status,
    String message,
    Map<String, Object> data,
    @JsonProperty("elapsed_ms") long elapsedMs,
    String at) {

  public ProgressEvent {
    Objects.requireNonNull(stage, "stage");
    Objects.requireNonNull(status, "status");
    data = data == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(data));
  }

  /** How far a stage got. */
  public enum Status implements WireName {
    /** The stage began. */
    STARTED,
    /** The stage finished. */
    COMPLETED,
    /** The stage did not run (not needed, or no budget left); the message says why. */
    SKIPPED,
    /** The stage failed or was cut short; the message says why. */
    FAILED;

    /** The status with this wire name. */
    @JsonCreator
    public static Status parse(String name) {
      return valueOf(name.strip().toUpperCase(Locale.ROOT));
    }
  }
}
