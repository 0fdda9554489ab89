package dev.brain.bench;

import dev.brain.bench.BenchData.Corpus;
import dev.brain.index.IndexFields;
import dev.brain.index.IndexInternals;
import dev.brain.index.VectorFormat;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.TopDocs;
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
 * HNSW search latency ({@code KnnFloatVectorQuery} for k = 10 and for k = 100, the vector lane's
 * depth) per vector format: float, 8-bit and 4-bit scalar-quantized (Lucene 10.4+'s {@code
 * Lucene104HnswScalarQuantizedVectorsFormat}, as brain's index writes them), on the same chunks and
 * queries. Recall, sizes and heap come from {@link FormatQuality}, which {@code bench/run formats}
 * runs after this.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
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
public class VectorFormatBench {

  /** Corpus size label. */
  @Param({"10k", "100k"})
  public String corpus;

  /** Vector format of the index searched. */
  @Param({"FLOAT", "INT8", "INT4"})
  public String format;

  /** Neighbours asked for (Lucene's search beam grows with it). */
  @Param({"10", "100"})
  public int k;

  private SearchState state;
  private IndexSearcher searcher;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    state = SearchState.open(Corpus.ofLabel(corpus), VectorFormat.valueOf(format));
    searcher = IndexInternals.acquireSearcher(state.index);
  }

  @Benchmark
  public TopDocs knn() throws IOException {
    float[] vector = state.vectors.get(state.nextQuery());
    return searcher.search(new KnnFloatVectorQuery(IndexFields.VECTOR, vector, k), k);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    IndexInternals.releaseSearcher(state.index, searcher);
    state.close();
  }
}
