package dev.brain.index;

import dev.brain.chunking.Chunk;
import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures how much of the raw embedder throughput a sync keeps. Splits the first {@code N} lines
 * of a JSONL corpus into rounds; each round adds one slice to the synced folder and syncs it (the
 * pipeline: read, skip unchanged, chunk, look up reuse, embed, write, commit), then embeds the very
 * same chunk texts again with the bare embedder in batches of the same size. Interleaving the two
 * keeps load drift on a shared machine from favouring either. Not a test (it takes minutes); run it
 * with the test classpath:
 *
 * <pre>
 * ./mvnw -B -q -pl index test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Dai.djl.offline=true \
 *   -cp "$(cat index/target/test-classpath.txt):index/target/classes:index/target/test-classes" \
 *   dev.brain.index.SyncThroughput ../shared/datasets/scifact/corpus.jsonl 600 4
 * </pre>
 */
public final class SyncThroughput {
  private SyncThroughput() {}

  public static void main(String[] args) throws Exception {
    Path corpus = Path.of(args[0]);
    int records = args.length > 1 ? Integer.parseInt(args[1]) : 400;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    List<String> lines;
    try (BufferedReader in = Files.newBufferedReader(corpus)) {
      lines = in.lines().limit(records).toList();
    }
    Path work = Files.createTempDirectory("brain-throughput");
    Path root = Files.createDirectories(work.resolve("corpus"));
    var config = IndexConfig.defaults(work.resolve("data"));
    double syncSeconds = 0;
    double embedBusySeconds = 0;
    double rawSeconds = 0;
    long chunks = 0;
    try (Embedder embedder = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
        var index = BrainIndex.open(config, embedder)) {
      embedder.embedPassages(List.of("warm up the model", "and the tokenizer"));
      int perRound = (lines.size() + rounds - 1) / rounds;
      for (int r = 0; r < rounds; r++) {
        var slice = lines.subList(r * perRound, Math.min(lines.size(), (r + 1) * perRound));
        Files.write(root.resolve("slice-" + r + ".jsonl"), slice);
        var added = new ArrayList<String>();
        SyncReport report =
            index.sync(
                List.of(root),
                new SyncListener() {
                  @Override
                  public void recordDone(String key, Change change) {
                    if (change == Change.ADDED) {
                      added.add(key);
                    }
                  }
                });
        syncSeconds += report.elapsed().toNanos() / 1e9;
        embedBusySeconds += report.embedTime().toNanos() / 1e9;
        chunks += report.chunksWritten();
        rawSeconds += rawEmbedSeconds(index, embedder, added, config.embedBatchSize());
        System.out.printf(
            "round %d: %d records, %d chunks, sync %.1f s%n",
            r, report.added(), report.chunksWritten(), report.elapsed().toMillis() / 1e3);
      }
    }
    System.out.printf(
        "total: %d records, %d chunks%n"
            + "sync: %.1f s, %.2f chunks/s (embedder busy %.1f s = %.1f%% of sync time)%n"
            + "raw embedder, same chunks and batch size: %.1f s, %.2f chunks/s%n"
            + "pipeline / raw throughput = %.1f%%%n",
        lines.size(),
        chunks,
        syncSeconds,
        chunks / syncSeconds,
        embedBusySeconds,
        100 * embedBusySeconds / syncSeconds,
        rawSeconds,
        chunks / rawSeconds,
        100 * rawSeconds / syncSeconds);
  }

  private static double rawEmbedSeconds(
      BrainIndex index, Embedder embedder, List<String> keys, int batchSize) throws Exception {
    var texts = new ArrayList<String>();
    for (String key : keys) {
      index.get(key).orElseThrow().chunks().stream().map(Chunk::text).forEach(texts::add);
    }
    long t0 = System.nanoTime();
    for (int i = 0; i < texts.size(); i += batchSize) {
      embedder.embedPassages(texts.subList(i, Math.min(texts.size(), i + batchSize)));
    }
    return (System.nanoTime() - t0) / 1e9;
  }
}
