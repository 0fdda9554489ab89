package dev.brain.bench;

import dev.brain.index.CorpusRecord;
import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An {@link Embedder} that answers from precomputed vectors, so the benchmark indexes are built
 * through brain's real sync (chunking, schema, metadata) without running the model again, and
 * search latency excludes query embedding. Passages are looked up by the hash of the passage the
 * index asks for (its {@code embed_hash}: title, blank line, chunk text), queries by their text.
 *
 * <p>With a delegate (a real embedder), token counts come from the real tokenizer (the chunker
 * needs them) and unknown texts are embedded for real and counted in {@link #misses()}; without
 * one, an unknown text is an error, so a benchmark can never time the model by accident.
 */
final class PrecomputedEmbedder implements Embedder {

  private final EmbeddingModel model;
  private final Map<String, float[]> passagesByHash;
  private final Map<String, float[]> queriesByText;
  private final Embedder delegate; // may be null
  private final AtomicLong misses = new AtomicLong();
  private final Map<String, float[]> learnedQueries = new ConcurrentHashMap<>();

  PrecomputedEmbedder(
      EmbeddingModel model,
      Map<String, float[]> passagesByHash,
      Map<String, float[]> queriesByText,
      Embedder delegate) {
    this.model = model;
    this.passagesByHash = passagesByHash;
    this.queriesByText = queriesByText;
    this.delegate = delegate;
  }

  @Override
  public EmbeddingModel model() {
    return model;
  }

  @Override
  public List<float[]> embedPassages(List<String> passages) {
    var out = new ArrayList<float[]>(passages.size());
    for (String text : passages) {
      float[] v = passagesByHash.get(CorpusRecord.sha256(text));
      if (v == null) {
        v = miss("passage", text, () -> delegate.embedPassages(List.of(text)).getFirst());
      }
      out.add(v);
    }
    return out;
  }

  @Override
  public float[] embedQuery(String query) {
    float[] v = queriesByText.get(query.strip());
    if (v == null) {
      v = miss("query", query, () -> delegate.embedQuery(query));
      learnedQueries.put(query.strip(), v);
    }
    return v;
  }

  /** Queries that had no precomputed vector and were embedded by the delegate, by text. */
  Map<String, float[]> learnedQueries() {
    return Map.copyOf(learnedQueries);
  }

  private float[] miss(String what, String text, java.util.function.Supplier<float[]> embed) {
    if (delegate == null) {
      throw new IllegalStateException(
          "no precomputed vector for the "
              + what
              + " '"
              + abbreviate(text)
              + "'; the bench cache is stale: delete "
              + BenchData.cache()
              + " and run `bench/run prepare`");
    }
    misses.incrementAndGet();
    return embed.get();
  }

  @Override
  public int countTokens(String text) {
    if (delegate == null) {
      throw new IllegalStateException("token counts need a real embedder (none was given)");
    }
    return delegate.countTokens(text);
  }

  /** Texts that had no precomputed vector and were embedded by the delegate. */
  long misses() {
    return misses.get();
  }

  /** The delegate's lifecycle belongs to the caller. */
  @Override
  public void close() {}

  private static String abbreviate(String text) {
    return text.length() <= 60 ? text : text.substring(0, 57) + "...";
  }
}
