package dev.brain.bench;

import dev.brain.bench.BenchData.Corpus;
import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CorpusRecord;
import dev.brain.index.EmbeddingInput;
import dev.brain.index.IndexConfig;
import dev.brain.index.SyncListener;
import dev.brain.index.SyncReport;
import dev.brain.index.VectorFormat;
import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Builds the benchmark caches once; later runs find them and return at once. In order:
 *
 * <ol>
 *   <li>the SciFact test queries' embeddings (the real model, about 300 queries);
 *   <li>the 10k index: SciFact's corpus synced through {@link BrainIndex#sync} with an embedder
 *       that answers from real SciFact chunk embeddings, harvested from an existing brain SciFact
 *       index when one is found (else embedded here, which takes many minutes), then cached in
 *       {@link BenchData#chunkVectors()};
 *   <li>the 100k index: SciFact plus synthetic records, each a {@link Perturbation perturbed} copy
 *       of one real chunk with its real vector plus noise, synced the same way;
 *   <li>each index copied as one segment in the float, int8 and int4 vector formats.
 * </ol>
 *
 * <p>Arguments: corpus labels to prepare ({@code 10k}, {@code 100k}); default both. Existing brain
 * SciFact indexes to harvest vectors from are looked for in {@code BRAIN_BENCH_VECTORS_FROM} (index
 * folders separated by {@code :}), {@code /tmp/brain-scifact/index} and {@code
 * ~/.brain/eval-cache/scifact-bge-small-en-v1.5-float/index}.
 */
public final class Prepare {
  private Prepare() {}

  static final EmbeddingModel MODEL = EmbeddingModel.BGE_SMALL_EN_V15;
  private static final PrintStream LOG = System.err;

  public static void main(String[] args) throws Exception {
    List<String> labels = args.length == 0 ? List.of("10k", "100k") : List.of(args);
    Files.createDirectories(BenchData.cache());
    LOG.println("bench cache: " + BenchData.cache());
    Path dataset = BenchData.dataset();
    try (Embedder real = Embedder.open(MODEL)) {
      prepareQueries(dataset, real);
      prepareSciFact(dataset, real);
      if (labels.contains(Corpus.SCALED.label())) {
        prepareScaled(dataset, real);
      }
    }
  }

  private static void prepareQueries(Path dataset, Embedder real) throws IOException {
    if (Files.isRegularFile(BenchData.queryVectors())) {
      return;
    }
    List<String> queries = SciFact.testQueries(dataset);
    LOG.printf("embedding %d SciFact test queries%n", queries.size());
    var vectors = new LinkedHashMap<String, float[]>();
    for (String q : queries) {
      vectors.put(q, real.embedQuery(q));
    }
    VectorFile.write(BenchData.queryVectors(), vectors);
  }

  private static void prepareSciFact(Path dataset, Embedder real) throws IOException {
    if (allReady(Corpus.SCIFACT)) {
      return;
    }
    Map<String, float[]> vectors =
        Files.isRegularFile(BenchData.chunkVectors())
            ? VectorFile.read(BenchData.chunkVectors())
            : harvest();
    LOG.printf("%d real chunk vectors at hand%n", vectors.size());
    Path staging = staging(Corpus.SCIFACT);
    var embedder = new PrecomputedEmbedder(MODEL, vectors, Map.of(), real);
    sync(staging, embedder, List.of(dataset.resolve("corpus.jsonl")));
    if (embedder.misses() > 0 || !Files.isRegularFile(BenchData.chunkVectors())) {
      var all = new LinkedHashMap<String, float[]>();
      for (IndexChunks.Chunk c : IndexChunks.read(staging)) {
        all.putIfAbsent(c.embedHash(), c.vector());
      }
      VectorFile.write(BenchData.chunkVectors(), all);
      LOG.printf("cached %d chunk vectors in %s%n", all.size(), BenchData.chunkVectors());
    }
    publish(Corpus.SCIFACT, staging);
  }

  /** Real chunk vectors from existing brain SciFact indexes built with the same model. */
  private static Map<String, float[]> harvest() throws IOException {
    var vectors = new LinkedHashMap<String, float[]>();
    for (Path dir : vectorSources()) {
      if (!Files.isDirectory(dir)) {
        continue;
      }
      Map<String, String> data = IndexChunks.commitData(dir);
      if (!MODEL.id().equals(data.get("brain.model_id"))) {
        LOG.printf("skipping %s: built with %s%n", dir, data.get("brain.model_id"));
        continue;
      }
      int before = vectors.size();
      for (IndexChunks.Chunk c : IndexChunks.read(dir)) {
        vectors.putIfAbsent(c.embedHash(), c.vector());
      }
      LOG.printf("harvested %d chunk vectors from %s%n", vectors.size() - before, dir);
    }
    if (vectors.isEmpty()) {
      LOG.println(
          "no existing SciFact index found: every chunk is embedded now (about 10,000 chunks;"
              + " 5-15 minutes on an idle 2-core machine)");
    }
    return vectors;
  }

  private static List<Path> vectorSources() {
    var dirs = new ArrayList<Path>();
    String env = System.getenv("BRAIN_BENCH_VECTORS_FROM");
    if (env != null && !env.isBlank()) {
      for (String p : env.split(":")) {
        dirs.add(Path.of(p));
      }
    }
    dirs.add(Path.of("/tmp/brain-scifact/index"));
    dirs.add(
        Path.of(System.getProperty("user.home"), ".brain", "eval-cache")
            .resolve("scifact-" + MODEL.id() + "-float")
            .resolve("index"));
    return dirs;
  }

  private static void prepareScaled(Path dataset, Embedder real) throws IOException {
    if (allReady(Corpus.SCALED)) {
      return;
    }
    Path source = BenchData.index(Corpus.SCIFACT, VectorFormat.FLOAT);
    List<IndexChunks.Chunk> chunks = IndexChunks.read(source);
    Map<String, String> titles = IndexChunks.titles(source);
    var vectors = new LinkedHashMap<String, float[]>(BenchData.LARGE_CORPUS_CHUNKS * 2);
    for (IndexChunks.Chunk c : chunks) {
      vectors.putIfAbsent(c.embedHash(), c.vector());
    }
    int synthetic = BenchData.LARGE_CORPUS_CHUNKS - chunks.size();
    LOG.printf("writing %d synthetic records from %d real chunks%n", synthetic, chunks.size());
    writeSynthetic(chunks, titles, synthetic, vectors);
    Path staging = staging(Corpus.SCALED);
    var embedder = new PrecomputedEmbedder(MODEL, vectors, Map.of(), real);
    sync(staging, embedder, List.of(dataset.resolve("corpus.jsonl"), BenchData.syntheticCorpus()));
    publish(Corpus.SCALED, staging);
  }

  /**
   * Writes the synthetic records (one chunk each: a perturbed copy of a real chunk, cycling through
   * all of them) and puts each one's noisy vector into {@code vectors} by the hash of its embedding
   * input.
   */
  static void writeSynthetic(
      List<IndexChunks.Chunk> chunks,
      Map<String, String> titles,
      int count,
      Map<String, float[]> vectors)
      throws IOException {
    Path file = BenchData.syntheticCorpus();
    Files.createDirectories(file.getParent());
    Perturbation p = Perturbation.DEFAULT;
    try (BufferedWriter out = Files.newBufferedWriter(file)) {
      for (int i = 0; i < count; i++) {
        IndexChunks.Chunk src = chunks.get(i % chunks.size());
        var random = new Random(0x5EEDL * 1_000_003L + i);
        String text = p.text(src.text(), random);
        String title = titles.getOrDefault(src.parentKey(), "");
        var line = new LinkedHashMap<String, String>();
        String syntheticTitle = title.isBlank() ? "" : p.text(title, random);
        line.put("_id", "syn-" + i);
        line.put("title", syntheticTitle);
        line.put("text", text);
        out.write(SciFact.JSON.writeValueAsString(line));
        out.newLine();
        vectors.putIfAbsent(
            CorpusRecord.sha256(EmbeddingInput.of(syntheticTitle, text)),
            p.vector(src.vector(), random));
      }
    }
  }

  private static Path staging(Corpus corpus) throws IOException {
    Path dir =
        BenchData.index(corpus, VectorFormat.FLOAT).resolveSibling(corpus.label() + "-staging");
    Reencode.deleteTree(dir);
    return dir;
  }

  private static void sync(Path dir, PrecomputedEmbedder embedder, List<Path> roots)
      throws IOException {
    IndexConfig config = IndexConfig.defaults(BenchData.cache()).withDirectory(dir);
    long t0 = System.nanoTime();
    try (BrainIndex index = BrainIndex.open(config, embedder)) {
      // The synthetic JSONL (about 80 MB) is past a collection's default file-size cap.
      List<CollectionRoot> collections =
          BrainIndex.namedRoots(roots).stream()
              .map(c -> new CollectionRoot(c.name(), c.root(), c.excludes(), Long.MAX_VALUE))
              .toList();
      SyncReport report = index.syncCollections(collections, progress(t0));
      LOG.printf(
          "synced %s: %d records, %d chunks in %.0f s; %d texts had no cached vector and were"
              + " embedded%n",
          dir,
          report.added(),
          report.chunksWritten(),
          (System.nanoTime() - t0) / 1e9,
          embedder.misses());
    }
  }

  private static SyncListener progress(long t0) {
    return new SyncListener() {
      long chunks;

      @Override
      public void chunksEmbedded(int count) {
        long before = chunks;
        chunks += count;
        if (chunks / 10_000 != before / 10_000) {
          LOG.printf("  %d chunks, %.0f s%n", chunks, (System.nanoTime() - t0) / 1e9);
        }
      }
    };
  }

  /** Copies the staging index into every format as one segment, marks them ready. */
  private static void publish(Corpus corpus, Path staging) throws IOException {
    for (VectorFormat format : VectorFormat.values()) {
      long t0 = System.nanoTime();
      Path target = BenchData.index(corpus, format);
      Reencode.copy(staging, target, format);
      double seconds = (System.nanoTime() - t0) / 1e9;
      int chunks = IndexChunks.read(target).size();
      var marker = new LinkedHashMap<String, Object>();
      marker.put("recipe", BenchData.RECIPE);
      marker.put("corpus", corpus.label());
      marker.put("format", format.name());
      marker.put("chunks", chunks);
      marker.put("build_seconds", Math.round(seconds));
      marker.put("built_at", Instant.now().toString());
      Files.writeString(
          BenchData.readyMarker(corpus, format), SciFact.JSON.writeValueAsString(marker));
      LOG.printf(
          "%s %s: %d chunks, one segment, built in %.0f s%n",
          corpus.label(), format, chunks, seconds);
    }
    Reencode.deleteTree(staging);
  }

  private static boolean allReady(Corpus corpus) {
    for (VectorFormat format : VectorFormat.values()) {
      if (!BenchData.ready(corpus, format)) {
        return false;
      }
    }
    return true;
  }
}
