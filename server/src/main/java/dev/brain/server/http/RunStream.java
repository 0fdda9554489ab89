package dev.brain.server.http;

import dev.brain.Brain;
import dev.brain.research.run.ProgressEvent;
import dev.brain.research.run.RunListener;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.run.RunStage;
import dev.brain.research.run.StopReason;
import dev.brain.research.synthesis.AnswerStatus;
import dev.brain.research.synthesis.Citation;
import dev.brain.research.synthesis.ResearchResult.Outcome;
import dev.brain.research.synthesis.SynthesisResult;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One {@code POST /api/research/run} through the research runner: every runner progress event as a
 * {@code progress} event, {@code start} when synthesis begins, the model's {@code token}s as they
 * stream (or one {@code answer}), {@code citation}s, the final {@code pack}, then {@code done},
 * {@code verification_failed} or {@code error}. The stream commits once planning is over, so a
 * question with no searchable word is still a 400.
 */
final class RunStream {
  private final Brain brain;
  private final RunRequest request;
  private final ModelGate.Resolved model;
  private final AtomicBoolean streamed = new AtomicBoolean();

  RunStream(Brain brain, RunRequest request, ModelGate.Resolved model) {
    this.brain = brain;
    this.request = request;
    this.model = model;
  }

  void run(EventStream.Emitter events) throws IOException {
    RunResult result = brain.run(request, listener(events));
    if (Thread.currentThread().isInterrupted()) {
      return; // cancelled because the client went away: nobody is listening
    }
    finish(result, events);
  }

  private RunListener listener(EventStream.Emitter events) {
    return new RunListener() {
      @Override
      public void onProgress(ProgressEvent event) {
        events.emit("progress", event);
        if (event.stage() == RunStage.PLANNING && event.status() != ProgressEvent.Status.STARTED) {
          events.commit();
        }
        if (event.stage() == RunStage.SYNTHESIS && event.status() == ProgressEvent.Status.STARTED) {
          events.emit("start", SynthesisStream.startOf(model));
        }
      }

      @Override
      public void onToken(String token) {
        streamed.set(true);
        events.emit("token", Map.of("text", token));
      }
    };
  }

  private void finish(RunResult result, EventStream.Emitter events) {
    SynthesisResult synthesis = result.synthesis();
    boolean answered =
        synthesis != null
            && (synthesis.answerStatus().isAnswer()
                || synthesis.answerStatus() == AnswerStatus.NO_EVIDENCE);
    if (answered && result.stopReason() != StopReason.VERIFICATION_FAILED) {
      if (!streamed.get() && synthesis.answer() != null) {
        events.emit("answer", Map.of("text", synthesis.answer()));
      }
      for (Citation citation : synthesis.citations()) {
        events.emit("citation", citation);
      }
    }
    if (result.pack() != null) {
      events.emit("pack", result.pack()); // the evidence stands whatever happened to the answer
    }
    Map<String, Object> summary = summary(result);
    if (result.stopReason() == StopReason.VERIFICATION_FAILED) {
      // Never shown as an answer: not its text, not its citations (which may name records that
      // are not evidence), not the draft's own status.
      summary.remove("answer");
      summary.remove("citations");
      summary.put("answer_status", Outcome.VERIFICATION_FAILED);
      summary.put(
          "failures", result.verification() == null ? null : result.verification().reasons());
      events.emit("verification_failed", summary);
    } else if (result.shownAnswer()) {
      events.emit("done", summary);
    } else {
      events.emit("error", failure(result, summary));
    }
  }

  private static Map<String, Object> summary(RunResult r) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("schema_version", RunResult.SCHEMA_VERSION);
    data.put("run_id", r.runId());
    data.put("stop_reason", r.stopReason());
    data.put("status", r.status());
    SynthesisResult s = r.synthesis();
    if (s != null) {
      data.put("answer", s.answer());
      data.put("answer_status", s.answerStatus());
      data.put("answer_warnings", s.answerWarnings());
      data.put("citations", s.citations());
      data.put("truncation", s.truncation());
      data.put("prompt_version", s.promptVersion());
      data.put("model", s.model());
      data.put("tool", s.tool());
    }
    data.put("verification", r.verification());
    data.put("judge", r.finalJudge() == null ? null : r.finalJudge().verdict());
    data.put("trace_id", r.tracePath() == null ? null : r.runId());
    data.put("trace_error", r.traceError());
    data.put("timings_ms", r.timings());
    return data;
  }

  private static Map<String, Object> failure(RunResult r, Map<String, Object> summary) {
    Map<String, Object> data = new LinkedHashMap<>(summary);
    SynthesisResult s = r.synthesis();
    boolean unavailable =
        r.stopReason() == StopReason.SYNTHESIS_UNAVAILABLE
            || s != null && s.answerStatus() == AnswerStatus.UNAVAILABLE;
    data.put("answer_status", unavailable ? "unavailable" : "error");
    data.put(
        "code",
        unavailable
            ? "model_unavailable"
            : r.failure() != null ? r.failure().code() : r.stopReason().wireName());
    data.put(
        "message",
        r.failure() != null
            ? r.failure().message()
            : "the run stopped (" + r.stopReason().wireName() + ") without an answer");
    data.remove("answer");
    return data;
  }
}
