package dev.brain.index;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;

/**
 * Measures how much of the raw embedder throughput a sync keeps: syncs the first {@code N} lines of
 * a JSONL corpus into a fresh index, then embeds the very same chunk texts again with the bare
 * embedder in batches of the same size, and prints both rates and their ratio. Not a test (it takes
 * minutes); run it with the test classpath:
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Dai.djl.offline=true \
 *   -cp "$(cat index/target/test-classpath.txt):index/target/classes:index/target/test-classes" \
 *   dev.brain.index.SyncThroughput ../shared/datasets/scifact/corpus.jsonl 600
 * </pre>
 */
public final class SyncThroughput {
  private SyncThroughput() {}

  public static void main(String[] args) throws Exception {
    Path corpus = Path.of(args[0]);
    Path work = Files.createTempDirectory("brain-throughput");
    Path root = corpus;
    if (args.length > 1) {
      root = work.resolve("corpus");
      Files.createDirectories(root);
      try (BufferedReader in = Files.newBufferedReader(corpus)) {
        Files.write(
            root.resolve("slice.jsonl"), in.lines().limit(Long.parseLong(args[1])).toList());
      }
    }
    try (Embedder embedder = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15)) {
      embedder.embedPassages(List.of("warm up the model", "and the tokenizer")); // JIT + ORT
      var config = IndexConfig.defaults(work.resolve("data"));
      try (var index = BrainIndex.open(config, embedder)) {
        SyncReport report = index.sync(List.of(root));
        List<String> texts = chunkTexts(index);
        long t0 = System.nanoTime();
        for (int i = 0; i < texts.size(); i += config.embedBatchSize()) {
          embedder.embedPassages(
              texts.subList(i, Math.min(texts.size(), i + config.embedBatchSize())));
        }
        double rawSeconds = (System.nanoTime() - t0) / 1e9;
        double raw = texts.size() / rawSeconds;
        double pipeline = report.chunksPerSecond();
        System.out.printf(
            "records %d, chunks %d%nsync: %.1f s wall, %.1f chunks/s (embedder busy %.1f s)%n"
                + "raw embedder on the same chunks: %.1f s, %.1f chunks/s%n"
                + "pipeline / raw = %.1f%%%n",
            report.written(),
            report.chunksWritten(),
            report.elapsed().toMillis() / 1e3,
            pipeline,
            report.embedTime().toMillis() / 1e3,
            rawSeconds,
            raw,
            100 * pipeline / raw);
      }
    }
  }

  private static List<String> chunkTexts(BrainIndex index) throws Exception {
    IndexSearcher searcher = index.acquireSearcher();
    try {
      var query = IndexReads.chunksQuery();
      var texts = new ArrayList<String>();
      for (ScoreDoc hit : searcher.search(query, Math.max(1, searcher.count(query))).scoreDocs) {
        texts.add(searcher.storedFields().document(hit.doc).get(IndexFields.TEXT));
      }
      return texts;
    } finally {
      index.releaseSearcher(searcher);
    }
  }
}
