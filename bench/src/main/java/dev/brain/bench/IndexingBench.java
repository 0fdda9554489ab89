package dev.brain.bench;

import dev.brain.chunking.Chunk;
import dev.brain.index.BrainIndex;
import dev.brain.index.EmbeddingInput;
import dev.brain.index.IndexConfig;
import dev.brain.index.SyncListener;
import dev.brain.index.SyncReport;
import dev.brain.models.Embedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

/**
 * Indexing throughput: the full pipeline ({@link BrainIndex#sync}: read JSONL, chunk, embed, write
 * Lucene documents with the HNSW graph, commit) against the bare embedder on the very same model
 * inputs (each chunk as {@link EmbeddingInput} makes it: title, blank line, text), in batches of
 * the sync's size. One operation does both, one after the other, so load drift on a shared machine
 * cannot favour either side; the figure is the ratio of the two throughputs, from the secondary
 * metrics {@code chunks}, {@code pipelineMillis} and {@code rawMillis} (sums over the measured
 * iterations). Each operation syncs into a fresh index; the model is loaded once per trial and
 * shared by both sides.
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
public class IndexingBench {

  /** SciFact records per operation (about two chunks each). */
  @Param({"32"})
  public int records;

  private Embedder embedder;
  private List<String> lines;
  private Path work;
  private int round;

  /** Work done and time spent by each side, summed over the measured iterations. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Sides {
    /** Chunks written by the sync (and embedded again by the bare embedder). */
    public long chunks;

    /** Wall time of the syncs. */
    public long pipelineMillis;

    /** Wall time of the bare embedder on the same chunk texts. */
    public long rawMillis;

    @Setup(Level.Iteration)
    public void reset() {
      chunks = 0;
      pipelineMillis = 0;
      rawMillis = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    embedder = Embedder.open(Prepare.MODEL);
    embedder.embedPassages(List.of("warm up the model", "and the tokenizer"));
    lines = SciFact.corpusLines(BenchData.dataset(), records);
    work = Files.createTempDirectory("brain-bench-indexing");
  }

  @Benchmark
  public SyncReport pipelineThenRaw(Sides sides) throws IOException {
    Path root = Files.createDirectories(work.resolve("corpus-" + round));
    Files.write(root.resolve("slice.jsonl"), lines);
    var config = IndexConfig.defaults(work.resolve("data-" + round));
    round++;
    var keys = new ArrayList<String>();
    SyncReport report;
    var texts = new ArrayList<String>();
    try (BrainIndex index = BrainIndex.open(config, embedder)) {
      long t0 = System.nanoTime();
      report = index.sync(List.of(root), added(keys));
      sides.pipelineMillis += (System.nanoTime() - t0) / 1_000_000;
      for (String key : keys) {
        var document = index.get(key).orElseThrow();
        for (Chunk chunk : document.chunks()) {
          texts.add(EmbeddingInput.of(document.record().title(), chunk.text()));
        }
      }
    }
    int batch = config.embedBatchSize();
    long t1 = System.nanoTime();
    for (int i = 0; i < texts.size(); i += batch) {
      embedder.embedPassages(texts.subList(i, Math.min(texts.size(), i + batch)));
    }
    sides.rawMillis += (System.nanoTime() - t1) / 1_000_000;
    sides.chunks += texts.size();
    return report;
  }

  private static SyncListener added(List<String> keys) {
    return new SyncListener() {
      @Override
      public void recordDone(String key, Change change) {
        if (change == Change.ADDED) {
          keys.add(key);
        }
      }
    };
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    embedder.close();
    Reencode.deleteTree(work);
  }
}
