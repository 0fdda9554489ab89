package dev.brain.index;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;

/**
 * Measures what lexical first buys on a real corpus: the time from the start of a first sync into
 * an empty data directory until a BM25 query answers with hits, and until vector coverage is 100%.
 * A reader in the same process follows the writer's commits the way {@code brain serve} does
 * ({@link BrainIndex#openReadOnly} and {@link BrainIndex#refresh()} once a second) and asks a BM25
 * query over the chunk text; it prints the coverage every 30 seconds. The data directory is a new
 * temporary folder (never {@code ~/.brain}), deleted at the end. Not a test (it takes minutes); run
 * it with the test classpath:
 *
 * <pre>
 * ./mvnw -B -q -pl index -am test-compile
 * ./mvnw -B -q -pl index dependency:build-classpath \
 *   -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
 * java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Dai.djl.offline=true \
 *   -cp "$(cat index/target/test-classpath.txt):index/target/classes:index/target/test-classes" \
 *   dev.brain.index.LexicalFirstTiming ../shared/datasets/scifact/corpus.jsonl
 * </pre>
 */
public final class LexicalFirstTiming {
  private LexicalFirstTiming() {}

  public static void main(String[] args) throws Exception {
    Path corpus = Path.of(args[0]).toAbsolutePath().normalize();
    Path data = Files.createTempDirectory("brain-lexical-first");
    IndexConfig config = IndexConfig.defaults(data);
    long start = System.nanoTime();
    var done = new AtomicBoolean();
    Thread reader =
        Thread.ofPlatform().name("bm25-reader").start(() -> follow(config, start, done));
    SyncReport report;
    try (var index = BrainIndex.open(config)) {
      var listener =
          new SyncListener() {
            @Override
            public void lexicalCommitted(int recordsWritten) {
              say(start, "lexical half committed: " + recordsWritten + " records");
            }

            @Override
            public void embeddingPlanned(long chunks) {
              say(start, "embedding " + chunks + " chunks");
            }
          };
      report = index.sync(List.of(corpus), listener);
      IndexStats stats = index.stats();
      say(
          start,
          String.format(
              Locale.ROOT,
              "vector coverage 100%%: %d records, %d chunks, %d embedded (%.1f%%)",
              stats.records(),
              stats.chunks(),
              stats.embeddedChunks(),
              100 * stats.vectorCoverage()));
    } finally {
      done.set(true);
      reader.join();
    }
    say(
        start,
        "sync report: added "
            + report.added()
            + ", chunks written "
            + report.chunksWritten()
            + ", embedded "
            + report.chunksEmbedded()
            + ", embedder time "
            + report.embedTime().toSeconds()
            + " s");
    deleteRecursively(data);
  }

  /** Polls like a server: the first BM25 answer with hits, then coverage every 30 s. */
  private static void follow(IndexConfig config, long start, AtomicBoolean done) {
    BrainIndex index = null;
    boolean answered = false;
    long lastReport = 0;
    try {
      while (!done.get()) {
        Thread.sleep(1000);
        if (index == null) {
          try {
            index = BrainIndex.openReadOnly(config, null);
          } catch (NoSuchFileException e) {
            continue;
          }
        }
        index.refresh();
        if (!answered && bm25Hits(index) > 0) {
          answered = true;
          say(start, "first BM25 search answered (" + bm25Hits(index) + " matching chunks)");
        }
        long now = System.nanoTime();
        if (answered && now - lastReport > Duration.ofSeconds(30).toNanos()) {
          lastReport = now;
          IndexStats stats = index.stats();
          say(
              start,
              String.format(
                  Locale.ROOT,
                  "vector: %.0f%% of chunks (%d of %d)",
                  100 * stats.vectorCoverage(),
                  stats.embeddedChunks(),
                  stats.chunks()));
        }
      }
      if (index != null) {
        index.close();
      }
    } catch (Exception e) {
      say(start, "reader failed: " + e);
    }
  }

  /** Chunks matching a BM25 query for two analyzed terms of the SciFact corpus. */
  private static int bm25Hits(BrainIndex index) throws java.io.IOException {
    IndexSearcher searcher = index.acquireSearcher();
    try {
      var query =
          new BooleanQuery.Builder()
              .add(new TermQuery(new Term(IndexFields.TEXT, "protein")), Occur.SHOULD)
              .add(new TermQuery(new Term(IndexFields.TEXT, "cell")), Occur.SHOULD)
              .build();
      return searcher.search(query, 10).scoreDocs.length;
    } finally {
      index.releaseSearcher(searcher);
    }
  }

  private static void say(long start, String message) {
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(Locale.ROOT, "[%7.1f s] %s%n", seconds, message);
    System.out.flush();
  }

  private static void deleteRecursively(Path dir) throws java.io.IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
