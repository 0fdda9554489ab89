package dev.brain.server.http;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.brain.Brain;
import dev.brain.research.synthesis.AnswerStatus;
import dev.brain.research.synthesis.Citation;
import dev.brain.research.synthesis.PreparedSynthesis;
import dev.brain.research.synthesis.SynthesisOptions;
import dev.brain.research.synthesis.SynthesisResult;
import dev.brain.research.synthesis.Verification;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The answer part of a stream, shared by {@code /synthesize} and {@code /run}: {@code start}, then
 * {@code token}* as a chat model streams (or one {@code answer} from the extractive synthesizer),
 * then {@code citation}* — or a terminal {@code error} when the model was unavailable or failed.
 */
final class SynthesisStream {
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  private SynthesisStream() {}

  /**
   * Streams the answer of {@code prepared}; returns it, or {@code null} after emitting the terminal
   * {@code error}.
   */
  static SynthesisResult answer(
      Brain brain,
      PreparedSynthesis prepared,
      ModelGate.Resolved model,
      SynthesisOptions options,
      EventStream.Emitter events) {
    events.emit("start", start(prepared, model));
    var streamed = new AtomicBoolean();
    SynthesisResult result =
        brain.synthesize(
            prepared,
            model.model(),
            options,
            token -> {
              streamed.set(true);
              events.emit("token", Map.of("text", token));
            });
    AnswerStatus status = result.answerStatus();
    if (status == AnswerStatus.UNAVAILABLE && !streamed.get()) {
      // Before any answer text: a 503 if the stream is not committed yet, else an error event.
      throw ModelGate.unavailable(
          result.error() == null ? model.id() + " is unavailable" : result.error());
    }
    if (status == AnswerStatus.UNAVAILABLE || status == AnswerStatus.ERROR) {
      events.emit("error", failure(result));
      return null;
    }
    if (!streamed.get() && result.answer() != null) {
      events.emit("answer", Map.of("text", result.answer()));
    }
    for (Citation citation : result.citations()) {
      events.emit("citation", citation);
    }
    return result;
  }

  private static Map<String, Object> start(PreparedSynthesis prepared, ModelGate.Resolved model) {
    Map<String, Object> data = startOf(model);
    data.put("prompt_version", prepared.promptVersion());
    data.put("answer_status", prepared.answerStatus());
    data.put("answer_warnings", prepared.answerWarnings());
    data.put("evidence_budget_chars", prepared.truncation().evidenceBudgetChars());
    data.put("truncation", prepared.truncation());
    data.put("citable_sources", prepared.citableSources().size());
    return data;
  }

  /** The data of a {@code start} event before an answer from {@code model}. */
  static Map<String, Object> startOf(ModelGate.Resolved model) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("schema_version", SynthesisResult.SCHEMA_VERSION);
    data.put("model", model.id());
    data.put("tool", model.extractive() ? SynthesisResult.EXTRACTIVE : provider(model.id()));
    return data;
  }

  /** The {@code done} data: the whole synthesis result, its verification and size. */
  static Map<String, Object> done(SynthesisResult result, Verification verification) {
    Map<String, Object> data = HttpJson.MAPPER.convertValue(result, MAP);
    data.put("answer_chars", result.answer() == null ? 0 : result.answer().length());
    data.put("verification", verification);
    return data;
  }

  /**
   * Ends a {@code /synthesize} stream: {@code done}, or {@code verification_failed} (without the
   * answer) when the answer failed verification or the posted pack could not be trusted.
   */
  static void finish(
      SynthesisResult result,
      Verification verification,
      List<String> packProblems,
      EventStream.Emitter events) {
    Map<String, Object> data = done(result, verification);
    if (verification.passed() && packProblems.isEmpty()) {
      events.emit("done", data);
      return;
    }
    List<String> failures = new ArrayList<>(packProblems);
    failures.addAll(verification.reasons());
    data.remove("answer");
    data.put("stop_reason", "verification_failed");
    data.put("failures", failures);
    events.emit("verification_failed", data);
  }

  static Map<String, Object> failure(SynthesisResult result) {
    Map<String, Object> data = new LinkedHashMap<>();
    boolean unavailable = result.answerStatus() == AnswerStatus.UNAVAILABLE;
    data.put("answer_status", result.answerStatus());
    data.put("code", unavailable ? "model_unavailable" : "model_error");
    data.put(
        "message",
        result.error() == null
            ? (unavailable ? "the model is unavailable" : "the model failed")
            : result.error());
    data.put("answer_warnings", result.answerWarnings());
    data.put("model", result.model());
    data.put("tool", result.tool());
    return data;
  }

  static String provider(String id) {
    int slash = id.indexOf('/');
    return slash < 0 ? id : id.substring(0, slash);
  }
}
