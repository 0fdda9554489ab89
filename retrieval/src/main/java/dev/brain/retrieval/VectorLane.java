package dev.brain.retrieval;

import dev.brain.models.Embedder;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * The semantic lane: chunks whose embeddings are nearest the query's. The query is embedded here,
 * with the model of the stored vectors; the backend finds the nearest chunks with the filters
 * applied before the search, and says how many chunks have their vector yet.
 */
final class VectorLane {

  private final Supplier<Embedder> embedder;
  private final QueryVectors queries = new QueryVectors();

  /**
   * @param embedder the backend's embedder, loaded on first use; may throw if the model cannot load
   */
  VectorLane(Supplier<Embedder> embedder) {
    this.embedder = embedder;
  }

  LaneHits search(
      Backend.View view, QueryText query, SearchFilters filters, int depth, VectorSearch mode)
      throws IOException {
    Backend.Coverage coverage = view.coverage();
    if (coverage.vectors() == 0) {
      return LaneHits.unavailable(
          Lane.VECTOR,
          LaneStatus.NOT_INDEXED,
          "the index holds no chunk embeddings" + coverage(coverage));
    }
    float[] target;
    try {
      target = queries.embed(embedder.get(), query.text());
    } catch (RuntimeException e) {
      return LaneHits.unavailable(
          Lane.VECTOR,
          LaneStatus.MODEL_UNAVAILABLE,
          "the embedding model could not embed the query: " + e.getMessage());
    }
    LaneHits hits = view.vector(target, filters, depth, mode, coverage.vectors());
    String note = coverage(coverage);
    return note.isEmpty()
        ? hits
        : new LaneHits(
            hits.lane(), hits.status(), hits.hits(), hits.totalMatches(), hits.detail() + note);
  }

  /**
   * {@code "; vector: 41% of chunks"} while some chunks still lack their vector (a sync writes
   * chunks first and embeds them afterwards), else the empty string.
   */
  static String coverage(Backend.Coverage coverage) {
    long chunks = coverage.chunks();
    if (chunks == 0 || coverage.vectors() >= chunks) {
      return "";
    }
    int percent = (int) Math.floor(100.0 * coverage.vectors() / chunks);
    return "; vector: "
        + percent
        + "% of chunks (embedding not finished; `brain index` completes it)";
  }
}
