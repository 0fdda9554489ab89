package dev.brain.research.synthesis;

import dev.brain.models.chat.ChatException;
import dev.brain.models.chat.ChatListener;
import dev.brain.models.chat.ChatMessage;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatRequest;
import dev.brain.models.chat.ChatResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Synthesizes through a chat model: the prepared input with the synthesis rules, streamed to a
 * listener token by token. An unreachable model ends {@code unavailable}, a failing one {@code
 * error}; the pack is untouched either way. A pack without evidence is never sent to the model.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class ModelSynthesizer {
  private ModelSynthesizer() {}

  /** Sampling temperature of answers: low, so answers stay close to the evidence. */
  static final double TEMPERATURE = 0.2;

  /** Upper bound of generated tokens. */
  static final int MAX_TOKENS = 1500;

  // Reasoning models wrap their thinking in <think> tags; it is not part of the answer.
  private static final Pattern THINKING = Pattern.compile("(?s)<think>.*?</think>\\s*");

  public static SynthesisResult answer(
      PreparedSynthesis prepared,
      ChatModel model,
      SynthesisOptions options,
      ChatListener listener) {
    if (prepared.answerStatus() == AnswerStatus.NO_EVIDENCE) {
      return result(
          prepared,
          model,
          ExtractiveSynthesizer.noEvidence(prepared.pack()),
          prepared.answerStatus(),
          prepared.answerWarnings(),
          null);
    }
    var request =
        new ChatRequest(
            List.of(
                ChatMessage.system(prepared.systemPrompt()), ChatMessage.user(prepared.input())),
            options.timeout(),
            false,
            TEMPERATURE,
            MAX_TOKENS,
            List.of());
    try {
      ChatResponse response = model.chat(request, listener == null ? ChatListener.NONE : listener);
      String answer = THINKING.matcher(response.content()).replaceAll("").strip();
      if (answer.isEmpty()) {
        return failed(prepared, model, AnswerStatus.ERROR, "the model returned an empty answer");
      }
      return result(
          prepared, model, answer, prepared.answerStatus(), prepared.answerWarnings(), null);
    } catch (ChatException e) {
      AnswerStatus status =
          e.kind() == ChatException.Kind.UNAVAILABLE || e.kind() == ChatException.Kind.REFUSED
              ? AnswerStatus.UNAVAILABLE
              : AnswerStatus.ERROR;
      return failed(
          prepared,
          model,
          status,
          e.kind().name().toLowerCase(Locale.ROOT) + ": " + e.getMessage());
    }
  }

  private static SynthesisResult failed(
      PreparedSynthesis prepared, ChatModel model, AnswerStatus status, String error) {
    var warnings = new ArrayList<>(prepared.answerWarnings());
    warnings.add(
        status == AnswerStatus.UNAVAILABLE
            ? AnswerWarning.MODEL_UNAVAILABLE
            : AnswerWarning.MODEL_ERROR);
    return result(prepared, model, null, status, warnings, error);
  }

  private static SynthesisResult result(
      PreparedSynthesis prepared,
      ChatModel model,
      String answer,
      AnswerStatus status,
      List<AnswerWarning> warnings,
      String error) {
    return new SynthesisResult(
        SynthesisResult.SCHEMA_VERSION,
        answer,
        status,
        warnings,
        prepared.truncation(),
        Citations.of(prepared.pack(), answer),
        prepared.promptVersion(),
        model.id(),
        provider(model.id()),
        error);
  }

  /** {@code ollama} of {@code ollama/llama3.2}. */
  static String provider(String id) {
    int slash = id.indexOf('/');
    return slash < 0 ? id : id.substring(0, slash);
  }
}
