package dev.brain.research.synthesis;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.brain.research.pack.ResearchPack;
import dev.brain.retrieval.WireName;
import java.util.Locale;

/**
 * A whole research: the pack, the prepared synthesis input, the answer and its verification.
 *
 * @param schemaVersion always {@value #SCHEMA_VERSION}
 * @param status the outcome a surface shows: the answer status, or {@code verification_failed} when
 *     the answer failed a hard gate (it must then not be shown as a normal answer)
 * @param pack the research pack
 * @param preparedSynthesis the synthesis input's metadata (budget, truncation, citable sources)
 * @param synthesis the answer
 * @param verification the checks of the answer
 */
@JsonPropertyOrder({
  "schema_version",
  "status",
  "synthesis",
  "verification",
  "prepared_synthesis",
  "pack"
})
public record ResearchResult(
    @JsonProperty("schema_version") String schemaVersion,
    Outcome status,
    ResearchPack pack,
    @JsonProperty("prepared_synthesis") PreparedSynthesis preparedSynthesis,
    SynthesisResult synthesis,
    Verification verification) {

  /** The schema version of this shape. */
  public static final String SCHEMA_VERSION = "research_result.v1";

  /** What a surface shows for a research. */
  public enum Outcome implements WireName {
    /** A verified answer from all the evidence. */
    OK,
    /** A verified answer from part of the evidence (budget). */
    OK_TRUNCATED,
    /** A verified answer to part of the question; its last line names what the notes lack. */
    PARTIAL,
    /** Nothing in the corpus answers the question; no answer was made up. */
    NO_EVIDENCE,
    /** The chat model was unavailable; the pack stands. */
    UNAVAILABLE,
    /** The chat model failed; the pack stands. */
    ERROR,
    /** The answer failed a citation gate and must not be shown as a normal answer. */
    VERIFICATION_FAILED;

    /** The outcome with this wire name. */
    @JsonCreator
    public static Outcome parse(String name) {
      return valueOf(name.strip().toUpperCase(Locale.ROOT));
    }

    /** The outcome of a synthesis and its verification. */
    public static Outcome of(SynthesisResult synthesis, Verification verification) {
      if (!verification.passed()) {
        return VERIFICATION_FAILED;
      }
      return valueOf(synthesis.answerStatus().name());
    }
  }
}
