package dev.brain.bench;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random unit vectors seeded by the text, and a word count for tokens: an embedder that costs
 * nothing, so a backend benchmark times the store (writes, commits, HNSW, queries) rather than the
 * model, the same for both backends. Search quality on such vectors means nothing.
 */
final class SyntheticEmbedder implements Embedder {

  private final EmbeddingModel model;

  SyntheticEmbedder(EmbeddingModel model) {
    this.model = model;
  }

  @Override
  public EmbeddingModel model() {
    return model;
  }

  @Override
  public List<float[]> embedPassages(List<String> passages) {
    var out = new ArrayList<float[]>(passages.size());
    passages.forEach(p -> out.add(vector(p)));
    return out;
  }

  @Override
  public float[] embedQuery(String query) {
    return vector("query: " + query);
  }

  @Override
  public int countTokens(String text) {
    int words = 0;
    boolean inWord = false;
    for (int i = 0; i < text.length(); i++) {
      boolean letter = !Character.isWhitespace(text.charAt(i));
      if (letter && !inWord) {
        words++;
      }
      inWord = letter;
    }
    return words;
  }

  private float[] vector(String text) {
    long seed = 1125899906842597L;
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      seed = 31 * seed + b;
    }
    var random = new SplittableRandom(seed);
    var v = new float[model.dimension()];
    double norm = 0;
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) random.nextGaussian();
      norm += v[i] * v[i];
    }
    float scale = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) {
      v[i] *= scale;
    }
    return v;
  }

  @Override
  public void close() {}
}
