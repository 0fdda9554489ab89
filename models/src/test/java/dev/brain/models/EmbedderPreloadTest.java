package dev.brain.models;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link Embedder#preload}: the first {@link Embedder#open} of the preloaded model takes the
 * background load over, and it embeds exactly as an embedder opened directly.
 */
class EmbedderPreloadTest {

  @Test
  void theOpenAfterAPreloadTakesItOverAndEmbedsTheSame() {
    var model = EmbeddingModel.ALL_MINILM_L6_V2;
    Embedder.preload(model);
    // Waiting for it (what the CLI does before it exits) leaves nothing under way and keeps it.
    Embedder.awaitPreload();
    assertThat(EmbedderPreload.loading()).isFalse();
    try (var preloaded = Embedder.open(model);
        var direct = Embedder.open(model)) {
      assertThat(preloaded).isNotSameAs(direct);
      assertThat(preloaded.model()).isEqualTo(model);
      assertThat(preloaded.embedQuery("espresso grind size"))
          .containsExactly(direct.embedQuery("espresso grind size"));
      assertThat(EmbedderPreload.take(model, EmbedderOptions.defaults()))
          .as("handed over once")
          .isNull();
    }
  }
}
