package dev.brain.bench;

import dev.brain.bench.BenchData.Corpus;
import dev.brain.index.BrainIndex;
import dev.brain.index.VectorFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An opened benchmark index with the SciFact test queries and their precomputed vectors. Queries
 * are served in turn, so every sample is a different query and the mix is the same for every lane.
 */
final class SearchState implements AutoCloseable {

  final BrainIndex index;
  final List<String> queries;
  final List<float[]> vectors;
  private int next;

  private SearchState(BrainIndex index, List<String> queries, List<float[]> vectors) {
    this.index = index;
    this.queries = queries;
    this.vectors = vectors;
  }

  static SearchState open(Corpus corpus, VectorFormat format) throws IOException {
    BenchData.requireReady(corpus, format);
    Map<String, float[]> byText = VectorFile.read(BenchData.queryVectors());
    var embedder = new PrecomputedEmbedder(Prepare.MODEL, Map.of(), byText, null);
    BrainIndex index = BrainIndex.openReadOnly(BenchData.config(corpus, format), embedder);
    return new SearchState(index, List.copyOf(byText.keySet()), new ArrayList<>(byText.values()));
  }

  /** Position of the next query; advances round-robin. */
  int nextQuery() {
    int i = next;
    next = (next + 1) % queries.size();
    return i;
  }

  @Override
  public void close() throws IOException {
    index.close();
  }
}
