package dev.brain.research.agent;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.brain.research.trace.TraceStore;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * The saved trace of an agent run ({@code agent_trace.v1}), in the same store as research runs
 * ({@code <data>/research-runs/<run id>/}): {@code run.json} is this record, {@code run.md} its
 * timeline. Every tool call is there with its arguments, result size and duration. Listings ({@code
 * brain trace list}) show it like a research run, with {@code kind} {@code agent}.
 *
 * @param schemaVersion {@code agent_trace.v1}
 * @param kind always {@code agent}
 * @param runId the run id (the directory name)
 * @param surface who asked: {@code cli}, {@code web_api}, {@code web_chat}, ...
 * @param startedAt ISO-8601 start
 * @param completedAt ISO-8601 end
 * @param question the task
 * @param controller the controller model id
 * @param tools the tools the model was shown
 * @param stopReason why the run ended
 * @param status {@code ok} for a verified answer, else {@code no_answer}
 * @param message what happened, for a stop other than a final answer
 * @param answer the verified answer, or null
 * @param citedKeys keys the answer cites
 * @param evidenceKeys keys brain's tools returned
 * @param events the timeline: turns, tool calls (arguments, result characters, milliseconds),
 *     refusals, the stop
 * @param metrics durations and counts
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
  "schema_version",
  "kind",
  "run_id",
  "surface",
  "started_at",
  "completed_at",
  "question",
  "controller",
  "tools",
  "stop_reason",
  "status",
  "message",
  "answer",
  "cited_keys",
  "evidence_keys",
  "metrics",
  "events"
})
public record AgentTrace(
    @JsonProperty("schema_version") String schemaVersion,
    String kind,
    @JsonProperty("run_id") String runId,
    String surface,
    @JsonProperty("started_at") String startedAt,
    @JsonProperty("completed_at") String completedAt,
    String question,
    String controller,
    List<String> tools,
    @JsonProperty("stop_reason") AgentStopReason stopReason,
    String status,
    String message,
    String answer,
    @JsonProperty("cited_keys") List<String> citedKeys,
    @JsonProperty("evidence_keys") List<String> evidenceKeys,
    Metrics metrics,
    List<AgentEvent> events) {

  /** The schema version of this shape (declared by the trace store, which reads it). */
  public static final String SCHEMA_VERSION = TraceStore.AGENT_TRACE_VERSION;

  /**
   * The run's numbers.
   *
   * @param durationMs wall time of the run
   * @param turns model turns
   * @param toolCalls tool calls, refused ones included
   * @param toolMs time spent in tools
   * @param toolResultChars characters the tools returned, before cuts
   * @param artifactBytes bytes of the trace directory
   */
  public record Metrics(
      @JsonProperty("duration_ms") long durationMs,
      int turns,
      @JsonProperty("tool_calls") int toolCalls,
      @JsonProperty("tool_ms") long toolMs,
      @JsonProperty("tool_result_chars") long toolResultChars,
      @JsonProperty("artifact_bytes") long artifactBytes) {}

  public AgentTrace {
    tools = List.copyOf(tools);
    citedKeys = List.copyOf(citedKeys);
    evidenceKeys = List.copyOf(evidenceKeys);
    events = List.copyOf(events);
  }

  /** The trace of {@code result}, a run that started at {@code startedAt} and ended now. */
  public static AgentTrace of(
      String runId, String surface, Instant startedAt, List<String> tools, AgentResult result) {
    Instant now = Instant.now();
    var calls = result.events().stream().filter(e -> e.type().equals("tool_call")).toList();
    var metrics =
        new Metrics(
            Duration.between(startedAt, now).toMillis(),
            result.turns(),
            result.toolCalls(),
            calls.stream().mapToLong(AgentEvent::elapsedMillis).sum(),
            calls.stream().mapToLong(e -> Math.max(0, e.resultChars())).sum(),
            0);
    return new AgentTrace(
        SCHEMA_VERSION,
        "agent",
        runId,
        surface,
        startedAt.toString(),
        now.toString(),
        result.task(),
        result.controller(),
        tools,
        result.stopReason(),
        result.answered() ? "ok" : "no_answer",
        result.message(),
        result.answer(),
        result.citedKeys(),
        result.evidenceKeys(),
        metrics,
        result.events());
  }

  /** Writes this trace into {@code store} and prunes old runs (never this one). */
  public TraceStore.Written save(TraceStore store) throws IOException {
    TraceStore.Written written = store.writeRun(runId, this, markdown());
    store.prune(store.retention(), Set.of(runId), Instant.now(), Instant.now().plusSeconds(5));
    return written;
  }

  /** {@code run.md}: the task, the outcome and a table of the tool calls. */
  public String markdown() {
    var md = new StringBuilder();
    md.append("# Agent run ").append(runId).append("\n\n");
    md.append("- Task: ").append(oneLine(question)).append('\n');
    md.append("- Surface: ").append(surface).append('\n');
    md.append("- Started: ").append(startedAt).append('\n');
    md.append("- Controller: ").append(controller).append('\n');
    md.append("- Tools shown: ").append(String.join(", ", tools)).append('\n');
    md.append("- Stop: ")
        .append(stopReason.wireName())
        .append(" after ")
        .append(metrics.turns())
        .append(" turns, ")
        .append(metrics.toolCalls())
        .append(" tool calls, ")
        .append(metrics.durationMs())
        .append(" ms")
        .append('\n');
    if (message != null) {
      md.append("- Note: ").append(oneLine(message)).append('\n');
    }
    md.append("\n## Tool calls\n\n");
    md.append("| Turn | Tool | Arguments | Result chars | ms | Note |\n");
    md.append("|---:|---|---|---:|---:|---|\n");
    for (AgentEvent e : events) {
      if (!e.type().equals("tool_call") && !e.type().equals("tool_refused")) {
        continue;
      }
      md.append("| ")
          .append(e.turn())
          .append(" | ")
          .append(cell(e.tool()))
          .append(" | `")
          .append(cell(e.arguments() == null ? "" : e.arguments()).replace("`", "'"))
          .append("` | ")
          .append(e.resultChars() < 0 ? "" : e.resultChars())
          .append(" | ")
          .append(e.elapsedMillis())
          .append(" | ")
          .append(
              e.type().equals("tool_refused")
                  ? "refused: " + cell(e.message())
                  : e.truncated() ? "cut to the output budget" : "")
          .append(" |\n");
    }
    md.append("\n## Answer\n\n");
    if (answer != null) {
      md.append(answer.strip()).append("\n\n");
      md.append("Cited: ").append(String.join(", ", citedKeys)).append('\n');
    } else {
      md.append("No answer (").append(stopReason.wireName()).append(").\n");
    }
    return md.toString();
  }

  private static String oneLine(String text) {
    return text == null ? "" : text.replaceAll("\\s+", " ").strip();
  }

  private static String cell(String text) {
    String t = oneLine(text).replace("|", "\\|");
    return t.length() <= 300 ? t : t.substring(0, 297) + "...";
  }
}
