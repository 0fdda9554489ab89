package dev.brain.models;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Measures embedding throughput on real passages (BEIR SciFact title + abstract). Not a test: run
 * it by hand, as the models README shows, on an otherwise idle machine.
 *
 * <p>Arguments: {@code [corpus.jsonl] [passages] [model-id] [threads] [batch-size]}; defaults: the
 * shared SciFact corpus, 256 passages, bge-small-en-v1.5, all processors, 32.
 */
public final class EmbeddingThroughput {

  private EmbeddingThroughput() {}

  public static void main(String[] args) throws IOException {
    Path corpus = Path.of(arg(args, 0, "/work/shared/datasets/scifact/corpus.jsonl"));
    int count = Integer.parseInt(arg(args, 1, "256"));
    EmbeddingModel model =
        EmbeddingModel.byId(arg(args, 2, EmbeddingModel.BGE_SMALL_EN_V15.id())).orElseThrow();
    int threads = Integer.parseInt(arg(args, 3, "" + Runtime.getRuntime().availableProcessors()));
    int maxWords = Integer.parseInt(arg(args, 5, "0"));
    List<String> passages = readPassages(corpus, count, maxWords);
    int batchSize = Integer.parseInt(arg(args, 4, "" + EmbedderOptions.DEFAULT_BATCH_SIZE));
    EmbedderOptions options =
        EmbedderOptions.defaults().withIntraOpThreads(threads).withBatchSize(batchSize);

    long loadStart = System.nanoTime();
    try (Embedder embedder = Embedder.open(model, options)) {
      double loadSeconds = seconds(loadStart);
      int[] tokens = passages.stream().mapToInt(embedder::countTokens).toArray();
      long countStart = System.nanoTime();
      for (String passage : passages) {
        embedder.countTokens(passage);
      }
      double countMicros = seconds(countStart) * 1e6 / passages.size();
      embedder.embedPassages(passages.subList(0, Math.min(32, passages.size()))); // warm-up

      long embedStart = System.nanoTime();
      embedder.embedPassages(passages);
      double embedSeconds = seconds(embedStart);

      List<float[]> queries = new ArrayList<>();
      long queryStart = System.nanoTime();
      for (int i = 0; i < 20; i++) {
        queries.add(
            embedder.embedQuery("does vitamin d supplementation reduce fracture risk " + i));
      }
      double queryMillis = seconds(queryStart) * 1000 / queries.size();

      int window = model.maxTokens();
      long real = 0;
      for (int t : tokens) {
        real += Math.min(t + 2, window);
      }
      System.out.printf(
          Locale.ROOT,
          "model=%s threads=%d batch=%d passages=%d mean_tokens=%.0f (model input %.0f)%n"
              + "load=%.2fs embed=%.2fs -> %.1f passages/s, %.0f tokens/s%n"
              + "query=%.1f ms each, countTokens=%.0f us per passage%n"
              + "padded tokens: bucketed %d, input order %d, real %d%n",
          model.id(),
          threads,
          options.batchSize(),
          passages.size(),
          average(tokens),
          (double) real / tokens.length,
          loadSeconds,
          embedSeconds,
          passages.size() / embedSeconds,
          real / embedSeconds,
          queryMillis,
          countMicros,
          paddedTokens(tokens, window, options, true),
          paddedTokens(tokens, window, options, false),
          real);
    }
  }

  /**
   * Tokens a run feeds the model, padding included: bucketed as {@link OnnxEmbedder} does (longest
   * first, batch size capped by the token budget), or naively in input order with fixed batches.
   */
  static long paddedTokens(int[] tokens, int window, EmbedderOptions options, boolean bucketed) {
    int[] lengths = Arrays.stream(tokens).map(t -> Math.min(t + 2, window)).toArray();
    if (bucketed) {
      lengths =
          IntStream.of(lengths)
              .boxed()
              .sorted(Comparator.reverseOrder())
              .mapToInt(Integer::intValue)
              .toArray();
    }
    long total = 0;
    for (int start = 0; start < lengths.length; ) {
      int size =
          bucketed
              ? Math.max(
                  1, Math.min(options.batchSize(), options.maxBatchTokens() / lengths[start]))
              : options.batchSize();
      size = Math.min(size, lengths.length - start);
      int longest = IntStream.of(lengths).skip(start).limit(size).max().orElse(0);
      total += (long) longest * size;
      start += size;
    }
    return total;
  }

  /** The first {@code count} title + abstract passages, cut to {@code maxWords} when positive. */
  private static List<String> readPassages(Path corpus, int count, int maxWords)
      throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<String> passages = new ArrayList<>();
    try (BufferedReader lines = Files.newBufferedReader(corpus)) {
      String line;
      while (passages.size() < count && (line = lines.readLine()) != null) {
        JsonNode doc = json.readTree(line);
        String passage = doc.path("title").asText() + "\n" + doc.path("text").asText();
        if (maxWords > 0) {
          String[] words = passage.split("\\s+");
          passage = String.join(" ", Arrays.copyOf(words, Math.min(maxWords, words.length)));
        }
        passages.add(passage);
      }
    }
    return passages;
  }

  private static String arg(String[] args, int index, String fallback) {
    return args.length > index ? args[index] : fallback;
  }

  private static double seconds(long start) {
    return (System.nanoTime() - start) / 1e9;
  }

  private static double average(int[] values) {
    return Arrays.stream(values).average().orElse(0);
  }
}
