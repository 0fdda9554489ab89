package dev.brain.models;

import static dev.brain.models.Vectors.cosine;
import static dev.brain.models.Vectors.norm;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class AllMiniLmEmbedderTest {

  @Test
  void isSelectableByIdAndMakesItsOwnMeanPooledVectors() {
    EmbeddingModel model = EmbeddingModel.byId("all-minilm-l6-v2").orElseThrow();
    String text = "Lucene stores postings lists for every term in the index.";
    float[] bgeVector;
    try (Embedder bge = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15)) {
      bgeVector = bge.embedPassages(List.of(text)).getFirst();
    }

    try (Embedder miniLm = Embedder.open(model)) {
      assertThat(miniLm.model().id())
          .isEqualTo("all-minilm-l6-v2")
          .isNotEqualTo(EmbeddingModel.BGE_SMALL_EN_V15.id());
      assertThat(miniLm.model().pooling()).isEqualTo(EmbeddingModel.Pooling.MEAN);
      float[] vector = miniLm.embedPassages(List.of(text)).getFirst();
      assertThat(vector).hasSize(384);
      assertThat(norm(vector)).isCloseTo(1.0, within(1e-4));
      assertThat(cosine(vector, bgeVector)).isLessThan(0.9);

      // No query instruction: a query is embedded exactly like a passage.
      assertThat(cosine(miniLm.embedQuery(text), vector)).isGreaterThan(0.999);

      List<float[]> passages =
          miniLm.embedPassages(
              List.of(
                  "The kettle boils water for tea in a few minutes.",
                  "Inverted indexes map each term to the documents that contain it.",
                  "Penguins live in the southern hemisphere and cannot fly."));
      float[] query =
          miniLm.embedQuery("how does a search engine find documents containing a word");
      assertThat(OnnxEmbedderTest.nearest(query, passages)).isEqualTo(1);
    }
  }

  @Test
  void truncatesAtItsOwnLimitButCountsEveryToken() {
    try (Embedder miniLm = Embedder.open(EmbeddingModel.ALL_MINILM_L6_V2)) {
      // 254 one-token words fill the 256-token window once [CLS] and [SEP] are added.
      String window = "search ".repeat(254);
      String longPassage = window + "penguins cannot fly ".repeat(100);

      assertThat(miniLm.countTokens(longPassage)).isEqualTo(254 + 300);
      float[] truncated = miniLm.embedPassages(List.of(longPassage)).getFirst();
      float[] windowOnly = miniLm.embedPassages(List.of(window)).getFirst();
      assertThat(cosine(truncated, windowOnly)).isGreaterThan(0.9999);
    }
  }
}
