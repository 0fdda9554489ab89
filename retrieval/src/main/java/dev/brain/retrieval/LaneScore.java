package dev.brain.retrieval;

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
 */
public record LaneScore(
    @JsonProperty("name") Lane lane,
    int rank,
    @JsonProperty("raw_score") double rawScore,
    double contribution) {}
