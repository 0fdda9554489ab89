package dev.brain.research.synthesis;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.brain.research.pack.ResearchPack;
import dev.brain.retrieval.EvidenceRow;
import java.util.List;
import java.util.Objects;

/**
 * The synthesis input of a pack, built deterministically under the evidence budget before any model
 * runs: what the start of a streamed answer can already report, and what a trace records. The
 * prompt texts are not part of the JSON (a trace stores them as a sidecar file).
 *
 * @param schemaVersion always {@value #SCHEMA_VERSION}
 * @param question the question
 * @param promptVersion the version of the synthesis prompt ({@value SynthesisPrompt#VERSION})
 * @param answerStatus the status the answer will have if the model succeeds: {@code ok}, {@code
 *     ok_truncated} or {@code no_evidence}
 * @param answerWarnings warnings known before generation
 * @param truncation what the budget left out
 * @param citableSources the evidence rows included in the input, in input order
 * @param systemPrompt the rules given to a chat model
 * @param input the evidence text given to a chat model
 * @param includedRows the included rows themselves, in input order
 * @param pack the pack it was built from
 * @param quotes what the pack offers to quote, read for the question (the passages an extractive
 *     answer quotes and a model is given); {@link Quotes#NONE} when not read
 */
@JsonPropertyOrder({
  "schema_version",
  "question",
  "prompt_version",
  "answer_status",
  "answer_warnings",
  "truncation",
  "citable_sources"
})
public record PreparedSynthesis(
    @JsonProperty("schema_version") String schemaVersion,
    String question,
    @JsonProperty("prompt_version") String promptVersion,
    @JsonProperty("answer_status") AnswerStatus answerStatus,
    @JsonProperty("answer_warnings") List<AnswerWarning> answerWarnings,
    Truncation truncation,
    @JsonProperty("citable_sources") List<Citation> citableSources,
    @JsonIgnore String systemPrompt,
    @JsonIgnore String input,
    @JsonIgnore List<EvidenceRow> includedRows,
    @JsonIgnore ResearchPack pack,
    @JsonIgnore Quotes quotes) {

  /** The schema version of this shape. */
  public static final String SCHEMA_VERSION = "prepared_synthesis.v1";

  public PreparedSynthesis {
    Objects.requireNonNull(pack, "pack");
    answerWarnings = List.copyOf(answerWarnings);
    citableSources = List.copyOf(citableSources);
    includedRows = List.copyOf(includedRows);
    quotes = quotes == null ? Quotes.NONE : quotes;
  }

  /** A prepared synthesis whose pack was not read for quotes (one read back from JSON). */
  public PreparedSynthesis(
      String schemaVersion,
      String question,
      String promptVersion,
      AnswerStatus answerStatus,
      List<AnswerWarning> answerWarnings,
      Truncation truncation,
      List<Citation> citableSources,
      String systemPrompt,
      String input,
      List<EvidenceRow> includedRows,
      ResearchPack pack) {
    this(
        schemaVersion,
        question,
        promptVersion,
        answerStatus,
        answerWarnings,
        truncation,
        citableSources,
        systemPrompt,
        input,
        includedRows,
        pack,
        Quotes.NONE);
  }
}
