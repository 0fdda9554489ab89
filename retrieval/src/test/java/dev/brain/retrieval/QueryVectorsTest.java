package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A query asked again is not embedded again; the vectors handed out are the caller's own. */
class QueryVectorsTest {

  /** Embeds a query as its length and first character, and records every query it embeds. */
  static final class Recording implements Embedder {
    final List<String> embedded = new ArrayList<>();

    @Override
    public EmbeddingModel model() {
      return EmbeddingModel.BGE_SMALL_EN_V15;
    }

    @Override
    public List<float[]> embedPassages(List<String> passages) {
      throw new UnsupportedOperationException();
    }

    @Override
    public synchronized float[] embedQuery(String query) {
      embedded.add(query);
      return new float[] {query.length(), query.charAt(0)};
    }

    @Override
    public int countTokens(String text) {
      return text.length();
    }

    @Override
    public void close() {}
  }

  @Test
  void aQueryAskedAgainIsEmbeddedOnce() {
    var embedder = new Recording();
    var vectors = new QueryVectors();
    float[] first = vectors.embed(embedder, "espresso grind");
    float[] again = vectors.embed(embedder, "espresso grind");
    vectors.embed(embedder, "kettle");
    assertThat(again).containsExactly(first);
    assertThat(embedder.embedded).containsExactly("espresso grind", "kettle");
  }

  @Test
  void aCallerChangingItsVectorChangesNoOtherCallers() {
    var embedder = new Recording();
    var vectors = new QueryVectors();
    vectors.embed(embedder, "kettle")[0] = -1;
    assertThat(vectors.embed(embedder, "kettle")).containsExactly(6, 'k');
  }

  @Test
  void anotherEmbedderEmbedsForItself() {
    var one = new Recording();
    var other = new Recording();
    var vectors = new QueryVectors();
    vectors.embed(one, "kettle");
    vectors.embed(other, "kettle");
    assertThat(other.embedded).containsExactly("kettle");
  }

  @Test
  void theLeastRecentlyAskedQueryIsForgottenPastTheCapacity() {
    var embedder = new Recording();
    var vectors = new QueryVectors();
    vectors.embed(embedder, "q0");
    for (int i = 1; i <= QueryVectors.CAPACITY; i++) {
      vectors.embed(embedder, "q" + i);
      vectors.embed(embedder, "q1"); // kept fresh
    }
    vectors.embed(embedder, "q1");
    vectors.embed(embedder, "q0");
    assertThat(embedder.embedded.stream().filter("q1"::equals)).hasSize(1);
    assertThat(embedder.embedded.stream().filter("q0"::equals)).hasSize(2);
  }
}
