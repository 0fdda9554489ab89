package dev.brain.evals;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.index.IndexMetadata;
import dev.brain.index.IndexStats;
import dev.brain.index.SummaryMode;
import dev.brain.index.SyncListener;
import dev.brain.index.SyncReport;
import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import dev.brain.retrieval.Backend;
import dev.brain.retrieval.FusionMode;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.Retriever;
import dev.brain.retrieval.SearchOptions;
import dev.brain.retrieval.SearchResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The BM25 lane of a BEIR folder with or without summary chunks, without the hour of embedding a
 * loaded 2-core box needs for SciFact: chunks are cut with the real tokenizer, and one constant
 * vector stands in for every embedding, so only the BM25 figures mean anything. Not a test; run by
 * hand (retrieval README, "Summary chunks: with and without"):
 *
 * <pre>
 * SummaryBm25Bench BEIR_DIR extractive|none NEW_DATA_DIR
 * </pre>
 */
public final class SummaryBm25Bench {

  private SummaryBm25Bench() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: SummaryBm25Bench BEIR_DIR extractive|none NEW_DATA_DIR");
      System.exit(2);
    }
    SummaryMode mode = SummaryMode.valueOf(args[1].toUpperCase(Locale.ROOT));
    IndexConfig config = IndexConfig.defaults(Path.of(args[2])).withSummaries(mode);
    try (Embedder model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15)) {
      Embedder tokensOnly = new ConstantVectors(model);
      var options =
          new BeirEvaluation.Options(Path.of(args[0]), Set.of(Lane.BM25), FusionMode.RRF, 0);
      BeirReport report;
      try (Backend index = Backend.embedded(BrainIndex.open(config, tokensOnly))) {
        var retriever = new Retriever(index);
        report =
            new BeirEvaluation(options)
                .run(
                    new BeirEvaluation.Corpus() {
                      @Override
                      public SyncReport index(Path corpus, SyncListener listener)
                          throws IOException {
                        return index.syncCollections(
                            BrainIndex.namedRoots(List.of(corpus)), listener);
                      }

                      @Override
                      public SearchResult search(String query, SearchOptions options)
                          throws IOException {
                        return retriever.search(query, options);
                      }

                      @Override
                      public IndexStats stats() throws IOException {
                        return index.stats();
                      }

                      @Override
                      public IndexMetadata metadata() {
                        return index.metadata();
                      }
                    },
                    SyncListener.NONE,
                    System.out::println);
      }
      System.out.printf(
          Locale.ROOT,
          "index.summaries %s: %d records, %d chunks%n",
          args[1],
          report.records(),
          report.chunks());
    }
  }

  /** Counts tokens with the real model; every passage and query gets the same unit vector. */
  private record ConstantVectors(Embedder real) implements Embedder {
    @Override
    public EmbeddingModel model() {
      return real.model();
    }

    @Override
    public List<float[]> embedPassages(List<String> passages) {
      var out = new ArrayList<float[]>(passages.size());
      passages.forEach(p -> out.add(unit()));
      return out;
    }

    @Override
    public float[] embedQuery(String query) {
      return unit();
    }

    @Override
    public int countTokens(String text) {
      return real.countTokens(text);
    }

    @Override
    public void close() {}

    private float[] unit() {
      var v = new float[real.model().dimension()];
      v[0] = 1;
      return v;
    }
  }
}
