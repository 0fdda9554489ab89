package dev.brain.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EmbedderOptionsTest {

  @Test
  void defaultsToBatchesOf32AndOneThreadPerProcessor() {
    EmbedderOptions options = EmbedderOptions.defaults();

    assertThat(options.batchSize()).isEqualTo(32);
    assertThat(options.maxBatchTokens()).isEqualTo(8_192);
    assertThat(options.intraOpThreads()).isEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(options.withBatchSize(4).batchSize()).isEqualTo(4);
    assertThat(options.withIntraOpThreads(1).intraOpThreads()).isEqualTo(1);
  }

  @Test
  void rejectsNonPositiveSettingsByName() {
    assertThatThrownBy(() -> EmbedderOptions.defaults().withBatchSize(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("batchSize");
    assertThatThrownBy(() -> new EmbedderOptions(8, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxBatchTokens");
  }
}
