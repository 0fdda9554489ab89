package dev.brain.bench;

import dev.brain.index.IndexConfig;
import dev.brain.index.VectorFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Where the benchmarks find their inputs: the SciFact dataset and the cache of embeddings and
 * prebuilt indexes that {@link Prepare} fills. Both are set by environment variable or system
 * property, so the JMH fork JVMs (which inherit the environment) see the same folders.
 *
 * <ul>
 *   <li>dataset: {@code BRAIN_BENCH_DATASET} / {@code -Dbrain.bench.dataset}, a BEIR folder with
 *       {@code corpus.jsonl}, {@code queries.jsonl} and {@code qrels/test.tsv}; default {@code
 *       /work/shared/datasets/scifact}
 *   <li>cache: {@code BRAIN_BENCH_CACHE} / {@code -Dbrain.bench.cache}; default {@code
 *       ~/.cache/brain-bench}
 * </ul>
 */
final class BenchData {
  private BenchData() {}

  /** Bump when the way the cached indexes are built changes, so stale caches are rebuilt. */
  static final String RECIPE = "v1";

  /** Chunks in the scaled-up corpus: the real SciFact chunks plus synthetic copies. */
  static final int LARGE_CORPUS_CHUNKS = 100_000;

  /** The two corpora the search benchmarks run on. */
  enum Corpus {
    /** All of SciFact (5,183 abstracts, about 9,800 chunks), real embeddings. */
    SCIFACT("10k"),
    /** SciFact plus perturbed copies of its chunks up to {@link #LARGE_CORPUS_CHUNKS} chunks. */
    SCALED("100k");

    private final String label;

    Corpus(String label) {
      this.label = label;
    }

    /** The name used in JMH parameters, result files and charts. */
    String label() {
      return label;
    }

    static Corpus ofLabel(String label) {
      for (Corpus c : values()) {
        if (c.label.equals(label)) {
          return c;
        }
      }
      throw new IllegalArgumentException("unknown corpus '" + label + "' (use 10k or 100k)");
    }
  }

  static Path dataset() {
    Path dir = Path.of(setting("BRAIN_BENCH_DATASET", "brain.bench.dataset", defaultDataset()));
    if (!Files.isRegularFile(dir.resolve("corpus.jsonl"))) {
      throw new IllegalStateException(
          "no BEIR dataset at "
              + dir
              + " (corpus.jsonl missing). Set BRAIN_BENCH_DATASET to the SciFact folder"
              + " (corpus.jsonl, queries.jsonl, qrels/test.tsv).");
    }
    return dir;
  }

  private static String defaultDataset() {
    return "/work/shared/datasets/scifact";
  }

  static Path cache() {
    String home = System.getProperty("user.home");
    return Path.of(setting("BRAIN_BENCH_CACHE", "brain.bench.cache", home + "/.cache/brain-bench"));
  }

  /** Real SciFact chunk embeddings by text hash (see {@link VectorFile}). */
  static Path chunkVectors() {
    return cache().resolve("scifact-chunk-vectors.bin");
  }

  /** Embeddings of the SciFact test queries by query text. */
  static Path queryVectors() {
    return cache().resolve("scifact-query-vectors.bin");
  }

  /** The synthetic records of the scaled corpus, as BEIR JSON lines. */
  static Path syntheticCorpus() {
    return cache().resolve("synthetic").resolve("synthetic-" + RECIPE + ".jsonl");
  }

  /** The folder of the benchmark index for a corpus and vector format. */
  static Path index(Corpus corpus, VectorFormat format) {
    return cache()
        .resolve("indexes")
        .resolve(
            "scifact-"
                + corpus.label()
                + "-"
                + format.name().toLowerCase(Locale.ROOT)
                + "-"
                + RECIPE);
  }

  /** Written after an index is complete; its absence means the index must be (re)built. */
  static Path readyMarker(Corpus corpus, VectorFormat format) {
    Path dir = index(corpus, format);
    return dir.resolveSibling(dir.getFileName() + ".ready");
  }

  static boolean ready(Corpus corpus, VectorFormat format) {
    return Files.isRegularFile(readyMarker(corpus, format));
  }

  /** The index configuration brain would use for this benchmark index. */
  static IndexConfig config(Corpus corpus, VectorFormat format) {
    return IndexConfig.defaults(cache())
        .withDirectory(index(corpus, format))
        .withVectorFormat(format);
  }

  /** Fails with the command that builds the caches if an index is missing. */
  static void requireReady(Corpus corpus, VectorFormat format) {
    if (!ready(corpus, format) || !Files.isRegularFile(queryVectors())) {
      throw new IllegalStateException(
          "the benchmark index "
              + index(corpus, format)
              + " is not built yet. Run `bench/run prepare` (or any search benchmark through"
              + " bench/run, which prepares first).");
    }
  }

  private static String setting(String env, String property, String fallback) {
    String value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      value = System.getenv(env);
    }
    return value == null || value.isBlank() ? fallback : value;
  }
}
