package dev.brain.bench;

import dev.brain.models.Embedder;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of embedding one query (the SciFact test queries in turn, with bge's query instruction).
 * The search benchmarks use precomputed query vectors, so this is the part of a real vector or
 * hybrid search they leave out.
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
public class QueryEmbeddingBench {

  private Embedder embedder;
  private List<String> queries;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    embedder = Embedder.open(Prepare.MODEL);
    queries = SciFact.testQueries(BenchData.dataset());
  }

  @Benchmark
  public float[] embedQuery() {
    String q = queries.get(next);
    next = (next + 1) % queries.size();
    return embedder.embedQuery(q);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    embedder.close();
  }
}
