package dev.brain.research.note;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.brain.research.json.Json;
import dev.brain.research.run.RunId;
import dev.brain.research.run.RunMetrics;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.run.RunSettings;
import dev.brain.research.synthesis.ResearchResult.Outcome;
import dev.brain.research.trace.ResearchTrace;
import dev.brain.research.trace.TraceStore;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The trace of a note research run in the trace store: a {@code research_trace.v1} directory of
 * surface {@code note} whose sidecars hold the topics, queries, sources and failures ({@code
 * note-research.json}) and the written section ({@code research-section.md}).
 */
final class NoteTrace {
  private NoteTrace() {}

  static final String SURFACE = "note";
  static final String RESULT_JSON = "note-research.json";
  static final String SECTION_MD = "research-section.md";

  /** Writes the trace; returns its run id. */
  static String write(TraceStore traces, NoteResult result, Instant started, int modelCalls)
      throws IOException {
    String runId = RunId.next(started);
    String question = "research note " + result.key();
    var sidecars = new LinkedHashMap<String, String>();
    try {
      sidecars.put(
          RESULT_JSON, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(result));
    } catch (JsonProcessingException e) {
      throw new IOException("cannot write the note research trace", e);
    }
    sidecars.put(SECTION_MD, result.section());
    var artifacts = new LinkedHashMap<String, String>();
    artifacts.put("note_research", RESULT_JSON);
    artifacts.put("research_section", SECTION_MD);
    long sources = result.research().stream().mapToLong(r -> r.sources().size()).sum();
    var metrics =
        new RunMetrics(
            Duration.between(started, Instant.now()).toMillis(),
            result.topics().size(),
            result.topics().size(),
            (int) sources,
            (int) sources,
            (int) sources,
            0,
            modelCalls,
            0,
            0,
            result.section().length(),
            0,
            false,
            0);
    // A note's research is not one run: the trace keeps its question, metrics and files; the
    // section it wrote is the outcome.
    var run = RunResult.builder(runId, question, Outcome.OK).metrics(metrics).build();
    var trace =
        new ResearchTrace(
            ResearchTrace.SCHEMA_VERSION,
            SURFACE,
            started.toString(),
            Instant.now().toString(),
            new ResearchTrace.Continuity(question, question, List.of(), List.of(), List.of()),
            RunSettings.of(RunRequest.of(question).withSurface(SURFACE)),
            artifacts,
            run,
            metrics);
    traces.write(trace, sidecars);
    return runId;
  }
}
