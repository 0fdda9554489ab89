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
 * Embedding throughput of bge-small by batch size, with and without length bucketing. One operation
 * embeds the same {@value #PASSAGES} SciFact chunks, in the order a sync meets them (each
 * abstract's full-size chunks, then its shorter last chunk), twice: bucketed, then unbucketed.
 * Doing both in one operation keeps load drift on a shared machine from favouring either; the
 * secondary metrics ({@code passages}, {@code tokens}, {@code bucketedMillis}, {@code
 * unbucketedMillis}, summed over the measured iterations) give passages/s and tokens/s of each.
 *
 * <p>{@code Embedder.embedPassages} always sorts its input by length before cutting batches, and
 * {@code EmbedderOptions} has no switch to turn that off. So "unbucketed" calls it once per
 * input-order window of {@code batchSize} passages: each window is then padded to its own longest
 * passage, exactly as an embedder without bucketing pads a batch. "Bucketed" hands all passages to
 * one call. Tokens are the model's real tokens (special tokens included, padding not); {@code
 * paddedBucketed} and {@code paddedUnbucketed} count the tokens the model actually runs. At batch
 * size 1 there is no padding and the two sides are the same work (a check on the noise).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 3, time = 1)
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

  /** Most passages per model call. */
  @Param({"1", "8", "32"})
  public int batchSize;

  private Embedder embedder;
  private List<String> passages;
  private long tokensPerPass;
  private long paddedBucketed;
  private long paddedUnbucketed;

  /** Work and time of each side, summed over the measured iterations. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Sides {
    /** Passages embedded per side. */
    public long passages;

    /** Real model tokens per side (special tokens included, padding not). */
    public long tokens;

    /** Tokens the model ran, padding included, bucketed. */
    public long paddedBucketed;

    /** Tokens the model ran, padding included, unbucketed. */
    public long paddedUnbucketed;

    /** Wall time of the bucketed side. */
    public long bucketedMillis;

    /** Wall time of the unbucketed side. */
    public long unbucketedMillis;

    @Setup(Level.Iteration)
    public void reset() {
      passages = 0;
      tokens = 0;
      paddedBucketed = 0;
      paddedUnbucketed = 0;
      bucketedMillis = 0;
      unbucketedMillis = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    var options = EmbedderOptions.defaults().withBatchSize(batchSize);
    embedder = Embedder.open(Prepare.MODEL, options);
    passages = passages(embedder, PASSAGES);
    var lengths = new ArrayList<Integer>();
    for (String p : passages) {
      lengths.add(embedder.countTokens(p) + 2); // [CLS] and [SEP]
    }
    tokensPerPass = lengths.stream().mapToLong(Integer::longValue).sum();
    paddedBucketed = Padding.bucketed(lengths, batchSize, options.maxBatchTokens());
    paddedUnbucketed = Padding.unbucketed(lengths, batchSize, options.maxBatchTokens());
    embedder.embedPassages(passages.subList(0, 2)); // load the session's kernels
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
  public void bucketedThenUnbucketed(Sides sides, Blackhole bh) {
    long t0 = System.nanoTime();
    bh.consume(embedder.embedPassages(passages));
    long t1 = System.nanoTime();
    for (int i = 0; i < passages.size(); i += batchSize) {
      bh.consume(
          embedder.embedPassages(passages.subList(i, Math.min(passages.size(), i + batchSize))));
    }
    long t2 = System.nanoTime();
    sides.bucketedMillis += (t1 - t0) / 1_000_000;
    sides.unbucketedMillis += (t2 - t1) / 1_000_000;
    sides.passages += passages.size();
    sides.tokens += tokensPerPass;
    sides.paddedBucketed += paddedBucketed;
    sides.paddedUnbucketed += paddedUnbucketed;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    embedder.close();
  }
}
