package dev.brain.bench;

import dev.brain.bench.BenchData.Corpus;
import dev.brain.index.IndexFields;
import dev.brain.index.IndexInternals;
import dev.brain.index.VectorFormat;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.Retriever;
import dev.brain.retrieval.SearchOptions;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.QueryBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Search latency per lane at 10k and 100k chunks (float vectors), with raw Lucene on the same
 * index, searcher and queries as the baseline:
 *
 * <ul>
 *   <li>{@code bm25}, {@code vector}, {@code hybrid}: {@link Retriever#search} with that lane alone
 *       or the default lanes (bm25 + vector + exact_tag, RRF fusion), default options (limit 10,
 *       depth 100, excerpts, consolidation). Query vectors are precomputed: query embedding is
 *       measured apart, in {@link QueryEmbeddingBench}.
 *   <li>{@code lucene-bm25}: the query analyzed with the index's analyzer into a disjunction of
 *       term queries on the chunk {@code text} field, top 10 by BM25.
 *   <li>{@code lucene-knn}: {@code KnnFloatVectorQuery} on the chunk vectors, k = 10.
 *   <li>{@code lucene-bm25@100}, {@code lucene-knn@100}: the same at the lanes' depth of 100 hits.
 * </ul>
 *
 * Raw Lucene returns doc ids and scores only; the lanes also read stored fields, fuse, and build
 * excerpts. Each sample is one query; queries rotate through the SciFact test set.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 10, time = 4)
@Measurement(iterations = 3, time = 3)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--enable-native-access=ALL-UNNAMED",
      "--add-modules=jdk.incubator.vector",
      "-Dai.djl.offline=true",
      "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
      "-Xmx1g"
    })
public class SearchBench {

  /** Corpus size label: {@code 10k} (real SciFact) or {@code 100k} (synthetic scale-up). */
  @Param({"10k", "100k"})
  public String corpus;

  /** What runs; see the class comment. */
  @Param({
    "bm25",
    "vector",
    "hybrid",
    "lucene-bm25",
    "lucene-knn",
    "lucene-bm25@100",
    "lucene-knn@100"
  })
  public String lane;

  private SearchState state;
  private Retriever retriever;
  private SearchOptions options;
  private IndexSearcher searcher;
  private QueryBuilder queryBuilder;
  private int rawK;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    state = SearchState.open(Corpus.ofLabel(corpus), VectorFormat.FLOAT);
    retriever = new Retriever(state.index);
    options =
        switch (lane) {
          case "bm25" -> SearchOptions.builder().lanes(Lane.BM25).build();
          case "vector" -> SearchOptions.builder().lanes(Lane.VECTOR).build();
          default -> SearchOptions.defaults();
        };
    searcher = IndexInternals.acquireSearcher(state.index);
    queryBuilder = new QueryBuilder(IndexInternals.analyzer(state.index));
    rawK = lane.endsWith("@100") ? 100 : 10;
  }

  @Benchmark
  public Object search() throws IOException {
    int q = state.nextQuery();
    return switch (lane) {
      case "lucene-bm25", "lucene-bm25@100" -> rawBm25(state.queries.get(q));
      case "lucene-knn", "lucene-knn@100" -> rawKnn(state.vectors.get(q));
      default -> retriever.search(state.queries.get(q), options);
    };
  }

  private TopDocs rawBm25(String text) throws IOException {
    Query query = queryBuilder.createBooleanQuery(IndexFields.TEXT, text);
    return searcher.search(query == null ? MatchNoDocsQuery.INSTANCE : query, rawK);
  }

  private TopDocs rawKnn(float[] vector) throws IOException {
    return searcher.search(new KnnFloatVectorQuery(IndexFields.VECTOR, vector, rawK), rawK);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    IndexInternals.releaseSearcher(state.index, searcher);
    state.close();
  }
}
