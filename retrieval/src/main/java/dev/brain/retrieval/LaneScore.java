package dev.brain.retrieval;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * How one lane ranked a record: the provenance behind a row's fused score.
 *
 * @param lane the lane (JSON {@code name})
 * @param rank 1-based rank of the record in the lane, records ranked by their best chunk
 * @param rawScore the lane's own score of the record's best chunk: BM25 score, cosine similarity of
 *     the embeddings (-1 to 1), number of query words in the matched tags (exact tag), or the fused
 *     score of the row it relates to (related)
 * @param contribution what the lane added to the fused score ({@code weight / (k + rank)} for RRF,
 *     {@code weight * normalized score} for normalized fusion; 0 for related rows)
 * @param role the role of the record's best chunk in the lane ({@code raw}, {@code summary}, {@code
 *     transcript}, {@code ocr}): {@code summary} when the lane found the record through its
 *     summary; {@code null} (left out of JSON) for lanes that rank whole records (exact tag,
 *     related)
 */
public record LaneScore(
    @JsonProperty("name") Lane lane,
    int rank,
    @JsonProperty("raw_score") double rawScore,
    double contribution,
    @JsonInclude(JsonInclude.Include.NON_NULL) String role) {

  /** A lane's score of a whole record, without a chunk. */
  public LaneScore(Lane lane, int rank, double rawScore, double contribution) {
    this(lane, rank, rawScore, contribution, null);
  }

  /** This score with the role of the chunk it was given for. */
  LaneScore withRole(String value) {
    return new LaneScore(lane, rank, rawScore, contribution, value);
  }
}
