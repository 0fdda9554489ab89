package dev.brain.research.synthesis;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * A synthesized answer ({@code research_synthesis.v1}). Model output is derived text, never
 * evidence: it is not indexed and must not be fed back as a fact.
 *
 * @param schemaVersion always {@value #SCHEMA_VERSION}
 * @param answer the answer text with bracketed record keys as citations; for {@code no_evidence} a
 *     plain statement that nothing was found; {@code null} when the model was unavailable or failed
 * @param answerStatus how the synthesis ended
 * @param answerWarnings what a reader must know ({@code evidence_truncated}, ...)
 * @param truncation what the evidence budget left out
 * @param citations the keys the answer cites, in order of first citation, each with where to find
 *     it; a key not in the pack is listed with {@code in_pack: false}
 * @param promptVersion the synthesis prompt version
 * @param model {@value #EXTRACTIVE} or the chat model's id ({@code ollama/llama3.2})
 * @param tool what produced the answer: {@value #EXTRACTIVE}, {@code ollama} or {@code openai}
 * @param error why the model was unavailable or failed, or {@code null} (omitted from JSON)
 */
@JsonPropertyOrder({
  "schema_version",
  "answer",
  "answer_status",
  "answer_warnings",
  "truncation",
  "citations",
  "prompt_version",
  "model",
  "tool",
  "error"
})
public record SynthesisResult(
    @JsonProperty("schema_version") String schemaVersion,
    String answer,
    @JsonProperty("answer_status") AnswerStatus answerStatus,
    @JsonProperty("answer_warnings") List<AnswerWarning> answerWarnings,
    Truncation truncation,
    List<Citation> citations,
    @JsonProperty("prompt_version") String promptVersion,
    String model,
    String tool,
    @JsonInclude(JsonInclude.Include.NON_NULL) String error) {

  /** The schema version of this shape. */
  public static final String SCHEMA_VERSION = "research_synthesis.v1";

  /** {@link #model()} and {@link #tool()} of the built-in extractive synthesizer. */
  public static final String EXTRACTIVE = "extractive";

  public SynthesisResult {
    answerWarnings = List.copyOf(answerWarnings);
    citations = List.copyOf(citations);
  }
}
