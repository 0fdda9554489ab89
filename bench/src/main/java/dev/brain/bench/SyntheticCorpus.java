package dev.brain.bench;

import dev.brain.index.CorpusRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded synthetic records for the store benchmarks ({@link BackendBench}, {@link ScaleBench}):
 * about 150 pseudo-words each from a Zipf-like vocabulary (one 256-token chunk), a two-word title
 * and one of 200 tags. Drawn in batches from one random stream, so the first {@code n} records are
 * the same however they are batched, on every machine.
 */
final class SyntheticCorpus {

  private static final int VOCABULARY = 20_000;
  private static final Instant CREATED = Instant.parse("2020-01-01T00:00:00Z");

  private final SplittableRandom random = new SplittableRandom(42);
  private int next;

  /** The next {@code n} records. */
  List<CorpusRecord> next(int n) {
    var out = new ArrayList<CorpusRecord>(n);
    for (int k = 0; k < n; k++, next++) {
      var text = new StringBuilder();
      for (int w = 0; w < 150; w++) {
        text.append(word(random)).append(w % 15 == 14 ? ". " : " ");
      }
      String title = word(random) + " " + word(random);
      List<String> tags = List.of("t" + random.nextInt(200));
      out.add(
          CorpusRecord.builder("doc:bench-" + next, CorpusRecord.KIND_ITEM, "doc", text.toString())
              .title(title)
              .tags(tags)
              .createdAt(CREATED.plusSeconds(3600L * next))
              .build());
    }
    return out;
  }

  /** {@code n} queries of three pseudo-words, seeded. */
  static List<String> queries(int n) {
    var random = new SplittableRandom(7);
    var out = new ArrayList<String>(n);
    for (int i = 0; i < n; i++) {
      out.add(word(random) + " " + word(random) + " " + word(random));
    }
    return out;
  }

  /** A pseudo-word, Zipf-like: low ranks are drawn far more often. */
  private static String word(SplittableRandom random) {
    int rank = (int) Math.floor(Math.pow(VOCABULARY, random.nextDouble()));
    return "w" + Integer.toString(rank, 36);
  }
}
