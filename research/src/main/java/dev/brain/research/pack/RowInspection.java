package dev.brain.research.pack;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * What inspecting one top row found: a deeper window of the stored record, centred on the
 * question's concepts, that replaces the row's excerpt when it matches at least as many required
 * concepts.
 *
 * @param sourceKey the row's key
 * @param textSource where the window was cut from: {@code raw} (the record's raw text, also a
 *     transcript's or OCR text), {@code summary} (for a summary row), or {@code excerpt} when the
 *     record could not be read (the row stays as it was)
 * @param textChars length of that text
 * @param windowStart start of the window in that text
 * @param windowEnd end (exclusive) of the window in that text
 * @param used whether the window replaced the row's excerpt
 * @param matchedConcepts keys of the concepts (required and optional) the row matches with the
 *     window
 * @param missingConcepts keys of the required concepts it still misses
 * @param newlyMatched keys of the required concepts the window found that the excerpt had not
 */
@JsonPropertyOrder({
  "source_key",
  "text_source",
  "text_chars",
  "window_start",
  "window_end",
  "used",
  "matched_concepts",
  "missing_concepts",
  "newly_matched"
})
public record RowInspection(
    @JsonProperty("source_key") String sourceKey,
    @JsonProperty("text_source") String textSource,
    @JsonProperty("text_chars") int textChars,
    @JsonProperty("window_start") int windowStart,
    @JsonProperty("window_end") int windowEnd,
    boolean used,
    @JsonProperty("matched_concepts") List<String> matchedConcepts,
    @JsonProperty("missing_concepts") List<String> missingConcepts,
    @JsonProperty("newly_matched") List<String> newlyMatched) {

  public RowInspection {
    matchedConcepts = List.copyOf(matchedConcepts);
    missingConcepts = List.copyOf(missingConcepts);
    newlyMatched = List.copyOf(newlyMatched);
  }
}
