package dev.brain.server.http;

import dev.brain.research.AnswerStatus;
import dev.brain.research.PreparedSynthesis;
import dev.brain.research.ResearchPack;
import dev.brain.research.Researcher;
import dev.brain.research.SynthesisResult;
import dev.brain.research.Verification;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One {@code POST /api/research/run}, composed from the research module's steps: the pack (plan and
 * retrieval, built before the stream opens so bad input is a 4xx), pinned records, the answer,
 * verification. Each stage reports {@code progress}; the evidence goes out as a {@code pack} event
 * before the answer streams.
 */
// TODO(issue 5): delegate to the research runner (inspection, judge, one retry or related
// expansion, traces) and forward its progress events, once it exists.
final class ResearchRun {
  private final Researcher researcher;
  private final ResearchRequest request;
  private final ResearchPack pack;
  private final FollowUp.Pinned pinned;
  private final ModelGate.Resolved model;
  private final long packMillis;
  private final long start = System.nanoTime();

  ResearchRun(
      Researcher researcher,
      ResearchRequest request,
      FollowUp.Pinned pinned,
      ModelGate.Resolved model,
      long packMillis) {
    this.researcher = researcher;
    this.request = request;
    this.pinned = pinned;
    this.pack = pinned.pack();
    this.model = model;
    this.packMillis = packMillis;
  }

  void run(EventStream.Emitter events) {
    var plan = pack.queryPlan();
    progress(
        events,
        "planning",
        "done",
        "deterministic plan: "
            + plan.queryFamily().wireName()
            + "; terms "
            + String.join(", ", plan.queryTerms())
            + (request.priorQuestions().isEmpty()
                ? ""
                : "; follow-up of " + request.priorQuestions().size() + " earlier question(s)"),
        Map.of("query_plan", plan));
    progress(events, "retrieval", "done", retrievalMessage(), Map.of("took_ms", packMillis));
    events.emit("pack", pack);
    if (!request.wantsAnswer()) {
      events.emit("done", retrievalOnly());
      return;
    }
    PreparedSynthesis prepared = researcher.prepare(pack, request.synthesisOptions());
    progress(
        events,
        "synthesis",
        "running",
        "answering with "
            + model.id()
            + " from "
            + prepared.citableSources().size()
            + " of "
            + (pack.evidence().size() + pack.exactTagEvidence().size())
            + " rows",
        Map.of("truncation", prepared.truncation()));
    SynthesisResult result =
        SynthesisStream.answer(researcher, prepared, model, request.synthesisOptions(), events);
    if (result == null) {
      return; // the terminal error is out
    }
    progress(events, "synthesis", "done", result.answerStatus().wireName(), Map.of());
    progress(
        events, "verification", "running", "checking citations against the evidence", Map.of());
    Verification verification = researcher.verify(pack, result);
    Map<String, Object> done = SynthesisStream.done(result, verification);
    done.put("elapsed_ms", elapsedMillis());
    if (!verification.passed()) {
      progress(
          events, "verification", "failed", String.join("; ", verification.reasons()), Map.of());
      done.put("stop_reason", "verification_failed");
      done.put("failures", verification.reasons());
      events.emit("verification_failed", done);
      return;
    }
    progress(events, "verification", "done", "every citation is in the evidence", Map.of());
    done.put("stop_reason", stopReason(result));
    events.emit("done", done);
  }

  private String retrievalMessage() {
    int rows = pack.evidence().size();
    var message = new StringBuilder();
    message.append(rows == 0 ? "no evidence" : rows + " evidence row" + (rows == 1 ? "" : "s"));
    if (!pack.exactTagEvidence().isEmpty()) {
      message.append(", ").append(pack.exactTagEvidence().size()).append(" exact-tag");
    }
    if (!pinned.added().isEmpty()) {
      message.append(" (").append(pinned.added().size()).append(" pinned)");
    }
    if (!pinned.missing().isEmpty()) {
      message.append("; pinned keys no longer in the index: ");
      message.append(String.join(", ", pinned.missing()));
    }
    return message.toString();
  }

  private Map<String, Object> retrievalOnly() {
    Map<String, Object> done = new LinkedHashMap<>();
    done.put("retrieval_only", true);
    done.put("stop_reason", pack.hasEvidence() ? "retrieval_only" : "no_evidence");
    done.put("evidence_count", pack.evidence().size());
    done.put("elapsed_ms", elapsedMillis());
    return done;
  }

  private static String stopReason(SynthesisResult result) {
    return result.answerStatus() == AnswerStatus.NO_EVIDENCE ? "no_evidence" : "enough_evidence";
  }

  private void progress(
      EventStream.Emitter events,
      String stage,
      String status,
      String message,
      Map<String, Object> data) {
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("stage", stage);
    event.put("status", status);
    event.put("message", message);
    event.put("elapsed_ms", elapsedMillis());
    event.put("data", data);
    events.emit("progress", event);
  }

  private long elapsedMillis() {
    return (System.nanoTime() - start) / 1_000_000 + packMillis;
  }
}
