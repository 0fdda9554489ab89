package dev.brain.research.synthesis;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.brain.retrieval.EvidenceRow;

/**
 * A record an answer cites (or may cite), with what a reader needs to find it.
 *
 * @param sourceKey the exact record key
 * @param title the record's title, or {@code null}
 * @param notePath the vault-relative note path, or {@code null}
 * @param url the canonical URL, or {@code null}
 * @param kind {@code item} or {@code source}; {@code null} for a key that is not in the pack
 * @param sourceType the source type, or {@code null}
 * @param evidenceRole how the row supports the answer ({@code raw}, {@code transcript}, {@code
 *     exact_tag}, {@code related}, ...), or {@code null}
 * @param inPack whether the key is a row of the research pack (a citation of any other key fails
 *     verification)
 */
public record Citation(
    @JsonProperty("source_key") String sourceKey,
    String title,
    @JsonProperty("note_path") String notePath,
    String url,
    String kind,
    @JsonProperty("source_type") String sourceType,
    @JsonProperty("evidence_role") String evidenceRole,
    @JsonProperty("in_pack") boolean inPack) {

  /** The citation of a pack row. */
  static Citation of(EvidenceRow row) {
    return new Citation(
        row.sourceKey(),
        row.title(),
        row.notePath(),
        row.url(),
        row.kind(),
        row.sourceType(),
        row.evidenceRole(),
        true);
  }

  /** The citation of a key the pack does not hold. */
  static Citation unknown(String key) {
    return new Citation(key, null, null, null, null, null, null, false);
  }
}
