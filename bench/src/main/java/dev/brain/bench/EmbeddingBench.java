package dev.brain.bench;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.chunking.Chunker;
import dev.brain.models.Embedder;
import dev.brain.models.EmbedderOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Embedding throughput of bge-small (passages/s and tokens/s, as secondary metrics) by batch size,
 * with and without length bucketing. One operation embeds the same {@value #PASSAGES} SciFact
 * chunks, in the order a sync meets them (each abstract's full-size chunks, then its shorter last
 * chunk).
 *
 * <p>{@code Embedder.embedPassages} always sorts its input by length before cutting batches, and
 * {@code EmbedderOptions} has no switch to turn that off. So "unbucketed" calls it once per batch
 * of {@code batchSize} passages in input order: each batch is then padded to its own longest
 * passage, exactly as an embedder without bucketing would pad it. "Bucketed" hands all passages to
 * one call. Tokens are the model's real tokens (special tokens included, padding not).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--enable-native-access=ALL-UNNAMED",
      "--add-modules=jdk.incubator.vector",
      "-Dai.djl.offline=true",
      "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
      "-Xmx2g"
    })
public class EmbeddingBench {

  static final int PASSAGES = 64;

  /** Batch size, optionally with {@code -unbucketed}. */
  @Param({"1", "8", "8-unbucketed", "32", "32-unbucketed"})
  public String batching;

  private Embedder embedder;
  private List<String> passages;
  private int batchSize;
  private boolean bucketed;
  private long tokensPerOp;

  /** Passages and tokens embedded, reported per second. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Counts {
    /** Passages embedded. */
    public long passages;

    /** Model tokens embedded (without padding). */
    public long tokens;

    /** JMH reports per iteration; start each from zero. */
    @Setup(Level.Iteration)
    public void reset() {
      passages = 0;
      tokens = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    bucketed = !batching.endsWith("-unbucketed");
    batchSize = Integer.parseInt(batching.replace("-unbucketed", ""));
    embedder = Embedder.open(Prepare.MODEL, EmbedderOptions.defaults().withBatchSize(batchSize));
    passages = passages(embedder, PASSAGES);
    for (String p : passages) {
      tokensPerOp += embedder.countTokens(p) + 2; // [CLS] and [SEP]
    }
  }

  /** The first {@code count} chunks of the SciFact corpus, chunked as brain's sync would. */
  static List<String> passages(Embedder embedder, int count) throws IOException {
    var chunker = new Chunker(embedder::countTokens);
    var out = new ArrayList<String>(count);
    for (SciFact.Doc doc : SciFact.corpus(BenchData.dataset(), count)) {
      for (Chunk c : chunker.chunk("doc:" + doc.id(), doc.text(), ChunkRole.RAW, false)) {
        if (out.size() < count) {
          out.add(c.text());
        }
      }
    }
    return out;
  }

  @Benchmark
  public void embedPassages(Counts counts, Blackhole bh) {
    if (bucketed) {
      bh.consume(embedder.embedPassages(passages));
    } else {
      for (int i = 0; i < passages.size(); i += batchSize) {
        bh.consume(
            embedder.embedPassages(passages.subList(i, Math.min(passages.size(), i + batchSize))));
      }
    }
    counts.passages += passages.size();
    counts.tokens += tokensPerOp;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    embedder.close();
  }
}
