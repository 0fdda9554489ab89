package dev.brain.bench;

import dev.brain.bench.BenchData.Corpus;
import dev.brain.index.BrainIndex;
import dev.brain.index.VectorFormat;
import dev.brain.models.Embedder;
import dev.brain.research.Researcher;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.pack.ResearchPack;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
 * Latency of building a research pack ({@code research_pack.v1}) with the deterministic planner and
 * no model (retrieval only): query understanding, one retrieval per query variant, evidence
 * ranking, coverage. The SciFact test queries serve as questions, in turn.
 *
 * <p>A pack searches several variants of the question, each embedded for the vector lane. Their
 * vectors are precomputed like the plain queries: the first trial on a corpus runs every question
 * once with the real model and caches every text it embeds ({@code research-query-vectors-*.bin} in
 * the bench cache), so the timed packs never run the model.
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
public class ResearchBench {

  /** Corpus size label. */
  @Param({"10k", "100k"})
  public String corpus;

  private BrainIndex index;
  private Researcher researcher;
  private List<String> questions;
  private final ResearchOptions options = ResearchOptions.defaults();
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Corpus c = Corpus.ofLabel(corpus);
    BenchData.requireReady(c, VectorFormat.FLOAT);
    questions = SciFact.testQueries(BenchData.dataset());
    Path cache = BenchData.cache().resolve("research-query-vectors-" + BenchData.RECIPE + ".bin");
    var vectors = new LinkedHashMap<>(VectorFile.read(BenchData.queryVectors()));
    if (Files.isRegularFile(cache)) {
      vectors.putAll(VectorFile.read(cache));
    }
    learnVariants(c, vectors, cache);
    var embedder = new PrecomputedEmbedder(Prepare.MODEL, Map.of(), vectors, null);
    index = BrainIndex.openReadOnly(BenchData.config(c, VectorFormat.FLOAT), embedder);
    researcher = new Researcher(new Retriever(index));
  }

  /** Runs every question once with a real model behind the cache; caches what it had to embed. */
  private void learnVariants(Corpus c, Map<String, float[]> vectors, Path cache)
      throws IOException {
    try (Embedder real = Embedder.open(Prepare.MODEL)) {
      var learning = new PrecomputedEmbedder(Prepare.MODEL, Map.of(), vectors, real);
      try (BrainIndex learnIndex =
          BrainIndex.openReadOnly(BenchData.config(c, VectorFormat.FLOAT), learning)) {
        var r = new Researcher(new Retriever(learnIndex));
        for (String q : questions) {
          r.pack(q, options);
        }
      }
      if (!learning.learnedQueries().isEmpty()) {
        vectors.putAll(learning.learnedQueries());
        var all = new LinkedHashMap<String, float[]>();
        if (Files.isRegularFile(cache)) {
          all.putAll(VectorFile.read(cache));
        }
        all.putAll(learning.learnedQueries());
        VectorFile.write(cache, all);
      }
    }
  }

  @Benchmark
  public ResearchPack pack() throws IOException {
    String q = questions.get(next);
    next = (next + 1) % questions.size();
    return researcher.pack(q, options);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    index.close();
  }
}
